"""Every stored action carries its think time (`Move.think_ms`): the server's milliseconds from
when its decision became due — the log's previous row, or the game's start for the first — to
its arrival. Undo and decision rows carry none; after an undo the decision restarts from it."""

from __future__ import annotations

import pytest

from games.models import Game, Move
from games.services import request_undo, submit_move
from tests.factories import EIGHT_CUT_HANDS, EIGHT_CUT_MOVES, GameFactory, backdate_decision

from .conftest import Crew

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    return made


def test_the_first_move_is_timed_from_the_games_start_and_the_next_from_the_move_before(
    crew: Crew, game: Game
) -> None:
    backdate_decision(game, 7)
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    backdate_decision(game, 12.5)
    assert submit_move(game, EIGHT_CUT_MOVES[1], 2, crew.referee).ok

    first, second = Move.objects.filter(game=game).order_by("seq")
    assert (first.think_ms, second.think_ms) == (7000, 12500)


def test_undo_rows_carry_no_think_time_and_the_decision_restarts_from_the_undo(
    crew: Crew, game: Game
) -> None:
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    backdate_decision(game, 30)
    request_undo(game, crew.head_referee, "wrong card 出し間違い", seq=1)
    game.refresh_from_db()
    backdate_decision(game, 3)
    assert submit_move(game, EIGHT_CUT_MOVES[0], 3, crew.referee).ok

    undo = Move.objects.get(game=game, seq=2)
    again = Move.objects.get(game=game, seq=3)
    assert undo.kind == Move.Kind.UNDO and undo.think_ms is None
    # Timed from the undo (3 s ago), not from the undone move (30 s before it).
    assert again.think_ms == 3000


def test_the_game_keeps_when_its_logs_latest_row_was_written(crew: Crew, game: Game) -> None:
    # The clock reads `Game.last_logged_at` rather than the log: it must follow every row.
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    request_undo(game, crew.head_referee, "wrong card", seq=1)
    assert submit_move(game, EIGHT_CUT_MOVES[0], 3, crew.referee).ok

    game.refresh_from_db()
    latest = Move.objects.filter(game=game).latest("seq")
    assert (latest.seq, game.last_logged_at) == (game.last_seq, latest.created_at)
