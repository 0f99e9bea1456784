"""`GET /api/tables/<id>/` says what a table is doing: its current game (numbers, status, the
seq of the next move — never a hand) and what starting a game would start, or why nothing can
start; the same answers as `/api/tables/<id>/games/`."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import submit_move
from tests.factories import GameFactory

from .conftest import T17_HANDS, T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def test_a_table_before_its_first_game_says_game_one_starts_next(
    client: Client, crew: Crew
) -> None:
    body = client.get(f"/api/tables/{crew.table.pk}/").json()

    assert body["current_game"] is None
    assert body["next_game"] == {"set_number": 1, "game_number": 1, "attempt": 1}
    assert body["next_blocker"] is None
    assert body["games_url"] == f"/api/tables/{crew.table.pk}/games/"
    assert [s["player"] for s in body["seats"]] == ["Aoki", "Baba", "Chiba", "Doi"]


def test_a_game_in_play_is_the_current_game_and_blocks_the_next(client: Client, crew: Crew) -> None:
    game = GameFactory(table=crew.table, game_number=1, hands=T17_HANDS, leader=0)
    submit_move(game, T17_MOVES[0], 1, crew.referee)

    response = client.get(f"/api/tables/{crew.table.pk}/")
    body = response.json()
    games = client.get(f"/api/tables/{crew.table.pk}/games/").json()

    assert body["current_game"] == {
        "id": game.pk,
        "set_number": 1,
        "game_number": 1,
        "attempt": 1,
        "status": Game.Status.IN_PLAY,
        "next_seq": 2,
        "undo_pending_seq": None,
    }
    assert body["next_game"] is None
    assert body["next_blocker"]["code"] == "game_in_play"
    assert games["next_game"] is None and games["next_blocker"]["code"] == "game_in_play"
    assert games["current_game"]["next_seq"] == body["current_game"]["next_seq"]
    assert "hands" not in response.content.decode() and "5D" not in response.content.decode()


def test_after_the_last_game_of_the_round_nothing_starts(client: Client, crew: Crew) -> None:
    tournament = crew.tournament
    GameFactory(
        table=crew.table,
        set_number=tournament.sets_per_round,
        game_number=tournament.games_per_set,
        status=Game.Status.CONFIRMED,
        finished_at=timezone.now(),
        confirmed_at=timezone.now(),
    )

    body = client.get(f"/api/tables/{crew.table.pk}/").json()

    assert body["current_game"]["status"] == Game.Status.CONFIRMED
    assert body["next_game"] is None
    assert body["next_blocker"]["code"] == "round_complete"
