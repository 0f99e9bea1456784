"""The table's games in the API never show a hand, a deal or the blind; a game's result shows
only once the game has ended."""

from __future__ import annotations

import pytest

from games import services
from games.engine import card_names
from games.models import Game
from tests.factories import browser, play_legal_moves

from .conftest import Crew

pytestmark = pytest.mark.django_db


def test_a_game_in_play_shows_no_card_anyone_holds(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee)
    play_legal_moves(game, crew.referee, 3)
    state = services.current_state(game)
    held = {c for seat in range(game.seats) for c in card_names(state.hands[seat])}
    referee = browser()
    referee.force_login(crew.referee)

    for client in (browser(), referee):
        response = client.get(f"/api/tables/{crew.table.pk}/games/")
        text = response.content.decode()
        assert response.status_code == 200
        assert held and not any(f'"{code}"' in text for code in held)
        assert "hands" not in text and "blind" not in text
        current = response.json()["current_game"]
        assert current["status"] == "in_play" and current["results"] == []


def test_results_show_once_the_game_has_ended(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    url = f"/api/tables/{crew.table.pk}/games/"

    assert browser().get(url).json()["games"][0]["results"] == []
    services.record_quick_result(game, crew.referee, [3, 2, 1, 0])
    rows = browser().get(url).json()["games"][0]["results"]

    assert [r["seat"] for r in rows] == [3, 2, 1, 0]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["player"] == "Doi" and rows[0]["entry_number"] == 4
