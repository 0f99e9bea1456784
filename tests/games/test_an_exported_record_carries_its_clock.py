"""A downloaded record carries its `clock` (docs/record-format.md): one think time per move
of the record, in the record's own order — a 大富豪 game's exchange gives apart under
`exchange_think_ms`, a 大財閥 7's give among the moves like any play — and the public record
keeps it, think times being public. The engine replays the record with it."""

from __future__ import annotations

import pytest

from games import services
from games.engine.record import replay
from games.models import Game
from games.records import game_record
from tests.factories import (
    UserFactory,
    daizaibatsu_game,
    daizaibatsu_table,
    play_to_the_end,
    tournament_played_out,
)

pytestmark = pytest.mark.django_db


def test_a_daifugo_records_clock_has_a_think_time_per_move_and_per_give() -> None:
    round_, _, _ = tournament_played_out(tables=1, games_per_set=2)
    second = Game.objects.get(table__round=round_, game_number=2)  # opens with the exchange

    record = game_record(second, hands=True)

    clock = record["clock"]
    assert isinstance(clock, dict)
    assert clock["limit_ms"] == 20_000  # the JDF preset's 20 s
    assert len(clock["think_ms"]) == len(record["moves"])  # type: ignore[arg-type]
    assert len(clock["exchange_think_ms"]) == len(record["exchange"])  # type: ignore[arg-type]
    assert all(isinstance(ms, int) and ms >= 0 for ms in clock["think_ms"])
    assert replay(record).finished
    assert game_record(second, hands=False)["clock"] == clock


def test_a_daizaibatsu_give_is_timed_as_a_move_of_the_record() -> None:
    referee = UserFactory()
    table = daizaibatsu_table(referee)
    game = daizaibatsu_game(
        table,
        [["7S", "9H", "5C"], ["5D", "6D", "4C"], ["6C", "9C", "4D"], ["TH", "JH", "5S"]],
        ["3H", "3S", "4H", "5H", "6H", "6S", "7D", "8D", "9D", "9S", "TC", "TD"],
        leader=0,
    )
    assert services.submit_move(game, {"seat": 0, "play": ["7S"]}, 1, referee).ok
    play_to_the_end(game, referee)
    game.refresh_from_db()

    record = game_record(game, hands=True)

    moves = record["moves"]
    assert isinstance(moves, list) and any("give" in move for move in moves)
    clock = record["clock"]
    assert isinstance(clock, dict)
    assert len(clock["think_ms"]) == len(moves)
    assert "exchange_think_ms" not in clock
    assert replay(record).finished
