"""A play or a pass through the Guandan console changes the game; an illegal play shows the
engine's code and its message (in the reader's language) and changes nothing."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import GUANDAN_SMALL_HANDS, browser, guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_play_and_a_pass_are_recorded_and_shown() -> None:
    _, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)
    url = f"/referee/tables/{table.pk}/play/"

    pair = {"seq": 1, "seat": 0, "cards": ["3C", "3D"], "action": "play"}
    played = client.post(url, pair, **HTMX)
    passed = client.post(url, {"seq": 2, "seat": 1, "action": "pass"}, **HTMX)

    game.refresh_from_db()
    assert [m.payload for m in game.moves.order_by("seq")] == [
        {"seat": 0, "play": ["3D", "3C"]},  # canonical: weakest first
        {"seat": 1, "pass": True},
    ]
    assert "pair of 3 by Aoki" in played.content.decode()
    page = passed.content.decode()
    assert 'data-testid="turn">Chiba (seat 3)' in page
    assert "4 cards" in page  # Baba's count, seen by the referee


def test_an_illegal_play_shows_the_engines_code_and_message_and_changes_nothing() -> None:
    _, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)

    response = client.post(
        f"/referee/tables/{table.pk}/play/",
        {"seq": 1, "seat": 0, "cards": ["3C", "KS"], "action": "play"},
        **HTMX,
    )

    page = response.content.decode()
    assert 'data-testid="move-error"' in page
    assert "these cards make no combination" in page and "<code>invalid_combination</code>" in page
    game.refresh_from_db()
    assert game.last_seq == 0 and game.status == Game.Status.IN_PLAY


def test_the_message_is_in_japanese_for_a_japanese_reader() -> None:
    referee, table, _, _ = guandan_console(hands=GUANDAN_SMALL_HANDS)
    client = browser("ja")
    client.force_login(referee)

    response = client.post(
        f"/referee/tables/{table.pk}/play/",
        {"seq": 1, "seat": 0, "cards": ["3C", "KS"], "action": "play"},
        **HTMX,
    )

    assert "役になっていません" in response.content.decode()
