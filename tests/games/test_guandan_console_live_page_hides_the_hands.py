"""The public live page of a Guandan table: both teams' levels, whose turn, the cards on the
table, each seat's count (above 10 only "more than 10": rule 16), who is out — and never a
card still in a hand."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine.guandan import legal_moves, move_to_json
from games.models import Game
from games.services import submit_move
from games.state import rebuild
from tests.factories import GUANDAN_SMALL_HANDS, guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_public_sees_levels_turn_trick_and_counts_but_no_hand() -> None:
    _, table, _, client = guandan_console(hands=GUANDAN_SMALL_HANDS)
    client.post(f"/referee/tables/{table.pk}/play/", {"seq": 1, "seat": 0, "cards": ["KS", "KS"]})

    page = Client(headers={"accept-language": "en"}).get(f"/tables/{table.pk}/live/")

    text = page.content.decode()
    assert page.status_code == 200
    assert "Level played: 2" in text and "Team A" in text and "Team B" in text
    assert 'data-testid="live-turn">Baba' in text
    assert "♠K" in text and "pair by Aoki" in text
    assert "7 cards" in text and "4 cards" in text
    for held in ("♥2", "♠5", "♦6", "♣7", "♥8", "♣3", "♦3", "♠4", "♠Q", "♥A", "♠J"):
        assert held + "<" not in text.replace('<span class="card red wild">♥2<', "")


def test_a_full_hand_is_counted_only_as_more_than_ten() -> None:
    referee, table, game, _ = guandan_console()
    state = rebuild(game)
    move = next(m for m in legal_moves(state) if m.action == "play" and len(m.cards) == 1)
    assert submit_move(game, move_to_json(move), 1, referee).ok

    public = Client(headers={"accept-language": "en"})
    text = public.get(f"/tables/{table.pk}/live/").content.decode()

    assert text.count("more than 10 cards") == 4
    assert Game.objects.get(pk=game.pk).last_seq == 1


def test_when_the_hand_is_over_the_public_sees_the_placings_and_the_levels() -> None:
    hands = [["3C"], ["4S", "4D"], ["5S"], ["6S", "7D"]]
    _, table, _, client = guandan_console(hands=hands)
    url = f"/referee/tables/{table.pk}/play/"
    client.post(url, {"seq": 1, "seat": 0, "cards": ["3C"]})
    client.post(url, {"seq": 2, "seat": 1, "action": "pass"})
    client.post(url, {"seq": 3, "seat": 2, "cards": ["5S"]})

    text = Client(headers={"accept-language": "en"}).get(f"/tables/{table.pk}/live/")

    page = text.content.decode()
    assert 'data-testid="live-placings"' in page
    assert "Aoki — first out (tóuyóu)" in page and "Chiba — second out (èryóu)" in page
    assert "Finish: 1-2" in page and "Team A: level 2 → 5" in page
