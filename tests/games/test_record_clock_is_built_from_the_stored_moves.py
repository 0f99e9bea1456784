"""`games.clock.record_clock(game)` builds a record's `clock` key from the stored moves: the
limit, one think time per move in force (undone ones left out, as the record leaves them out),
and each time fault at the index of the decision it was called on. The engine loads a record
with it and replays it as the game went."""

from __future__ import annotations

import pytest

from games.clock import record_clock
from games.engine.record import export_record, replay
from games.models import Game
from games.services import record_time_fault, request_undo, submit_move
from games.state import effective_actions, initial_state, parse_move
from tests.factories import EIGHT_CUT_HANDS, EIGHT_CUT_MOVES, GameFactory, backdate_decision

from .conftest import Crew

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    return made


def test_the_clock_follows_the_records_moves_and_places_each_fault(crew: Crew, game: Game) -> None:
    backdate_decision(game, 4)
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    backdate_decision(game, 2)
    assert submit_move(game, {"seat": 1, "play": ["6H"]}, 2, crew.referee).ok
    request_undo(game, crew.head_referee, "wrong card", seq=2)
    backdate_decision(game, 25)
    record_time_fault(game, 1, crew.referee)
    assert submit_move(game, EIGHT_CUT_MOVES[1], 4, crew.referee).ok

    clock = record_clock(game)

    assert clock is not None
    assert clock["limit_ms"] == 20000
    first, second = clock["think_ms"]
    assert (first, second) == (4000, 25000)
    assert clock["faults"] == [{"move": 1, "seat": 1, "rule": "warning", "think_ms": 25000}]
    game.refresh_from_db()
    moves = [parse_move(game, row.payload) for row in effective_actions(game.moves.all())]
    record = {
        "format": "kakumei-record/1",
        "rules": "jdf@1",
        **export_record(initial_state(game), moves),
        "clock": clock,
    }
    assert [v["ok"] for v in replay(record).to_dict()["moves"]] == [True, True]


def test_a_game_with_nothing_timed_has_no_clock(crew: Crew, game: Game) -> None:
    assert record_clock(game) is None
