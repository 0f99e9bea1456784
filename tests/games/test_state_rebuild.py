"""A game's state comes from the row's snapshot when it is current, else from its log: both
always agree with replaying the log through the engine."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from games.services import request_undo, submit_move
from games.state import rebuild

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def play(game: Game, crew: Crew, moves: list[dict[str, object]]) -> Game:
    for seq, move in enumerate(moves, start=1):
        assert submit_move(game, move, seq, crew.referee).ok
    game.refresh_from_db()
    return game


def replayed(game: Game) -> Any:
    """The state by replaying the stored log, bypassing the snapshot."""
    return rebuild(game, list(game.moves.order_by("seq")))


def test_the_state_is_restored_from_the_snapshot_without_reading_the_log(
    crew: Crew, t17_game: Game, django_assert_num_queries: Any
) -> None:
    game = play(t17_game, crew, T17_MOVES[:3])
    expected = replayed(game)

    with django_assert_num_queries(0):
        state = rebuild(game)

    assert state == expected
    assert state.counts != expected.setup.counts  # three moves really are in it


def test_a_snapshot_that_does_not_restore_is_ignored_for_the_log(
    crew: Crew, t17_game: Game
) -> None:
    game = play(t17_game, crew, T17_MOVES[:3])
    expected = replayed(game)
    Game.objects.filter(pk=game.pk).update(state_snapshot={"written by": "another engine"})
    game.refresh_from_db()

    assert rebuild(game) == expected


def test_a_snapshot_of_an_older_version_is_not_used(crew: Crew, t17_game: Game) -> None:
    game = play(t17_game, crew, T17_MOVES[:3])
    request_undo(game, crew.referee, "the joker was played by mistake")
    game.refresh_from_db()
    assert game.snapshot_version != game.version  # the undo changed the state, not the snapshot

    state = rebuild(game)

    assert state == replayed(game)
    assert state.turn == 2  # the joker's seat is to play again


def test_the_next_move_is_judged_against_the_snapshot_state(crew: Crew, t17_game: Game) -> None:
    game = play(t17_game, crew, T17_MOVES[:3])

    outcome = submit_move(game, T17_MOVES[3], 4, crew.referee)

    assert outcome.ok
    game.refresh_from_db()
    assert rebuild(game) == replayed(game)


def test_a_snapshot_written_before_the_state_gained_fields_is_replaced_by_the_log(
    crew: Crew, t17_game: Game
) -> None:
    """A snapshot from the engine before 千日手 and プンリー (no pass_run, stalemate, exposed)
    is refused by name, so the log is replayed; the next move writes a current snapshot."""
    game = play(t17_game, crew, T17_MOVES[:3])
    expected = replayed(game)
    older = {
        k: v
        for k, v in game.state_snapshot.items()
        if k not in ("pass_run", "stalemate", "exposed")
    }
    Game.objects.filter(pk=game.pk).update(state_snapshot=older)
    game.refresh_from_db()

    assert rebuild(game) == expected
    assert submit_move(game, T17_MOVES[3], 4, crew.referee).ok
    game.refresh_from_db()
    assert {"pass_run", "stalemate", "exposed"} <= set(game.state_snapshot)
