"""While the referee taps cards, the console says what they make (htmx, nothing is played): a
bomb is announced as one (炸弹), a selection the wild makes ambiguous lists its readings, and
cards that make nothing say so."""

from __future__ import annotations

import pytest

from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS = [
    ["2H", "5S", "6D", "7C", "8H", "8S", "8D", "8C", "3C"],
    ["4S", "4D", "QS", "AH"],
    ["6S", "6H", "9D", "TD"],
    ["7S", "7D", "JC", "JD"],
]


def read(cards: list[str]) -> str:
    _, table, game, client = guandan_console(hands=HANDS)
    response = client.post(
        f"/referee/tables/{table.pk}/play/",
        {"seq": 1, "seat": 0, "cards": cards, "action": "read"},
        **HTMX,
    )
    game.refresh_from_db()
    assert game.last_seq == 0  # reading plays nothing
    return str(response.content.decode())


def test_a_bomb_selection_is_announced() -> None:
    page = read(["8S", "8D", "8C", "8H"])

    assert 'class="badge bomb"' in page and "bomb of 4 × 8" in page


def test_an_ambiguous_selection_lists_its_readings() -> None:
    page = read(["2H", "5S", "6D", "7C", "8H"])

    assert 'data-testid="selection-several"' in page
    assert "straight 4–8" in page and "straight 5–9" in page


def test_cards_that_make_nothing_say_so() -> None:
    page = read(["3C", "8S"])

    assert "These cards make no combination." in page
