"""A record imported with its `clock` keeps each move's think time on the game's log, so the
players' think-time use counts the game and the game's own record gives the same clock back; a
record without a clock leaves the times unknown."""

from __future__ import annotations

import pytest

from games.clock import record_clock
from games.imports import import_records
from games.models import Game
from tests.factories import engine_record

from .conftest import Crew

pytestmark = pytest.mark.django_db


def imported(crew: Crew, record: dict[str, object]) -> Game:
    [outcome] = import_records(crew.table, crew.organiser, [record])
    assert outcome.status == "imported" and outcome.game is not None
    return outcome.game


def test_the_records_think_times_go_onto_the_games_log(crew: Crew) -> None:
    record = engine_record("timed on another system")
    moves = record["moves"]
    assert isinstance(moves, list)
    think_ms: list[int | None] = [1000 + 250 * i for i in range(len(moves))]
    think_ms[3] = None  # one the other system did not time
    record["clock"] = {"limit_ms": 20000, "think_ms": think_ms, "faults": []}

    game = imported(crew, record)

    assert [m.think_ms for m in game.moves.order_by("seq")] == think_ms
    clock = record_clock(game)
    assert clock is not None and clock["think_ms"] == think_ms


def test_a_record_without_a_clock_leaves_the_times_unknown(crew: Crew) -> None:
    game = imported(crew, engine_record("untimed on paper"))

    assert {m.think_ms for m in game.moves.all()} == {None}
    assert record_clock(game) is None
