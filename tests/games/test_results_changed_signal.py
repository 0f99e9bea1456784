"""Scoring hears of every change to a game's results, and only once it is committed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.live import results_changed
from games.models import Game
from games.services import request_undo, submit_move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[dict[str, int]]]:
    calls: list[dict[str, int]] = []

    def listener(**kwargs: Any) -> None:
        calls.append({"game_id": kwargs["game_id"], "tournament_id": kwargs["tournament_id"]})

    results_changed.connect(listener)
    yield calls
    results_changed.disconnect(listener)


def play_all_but_last(game: Game, crew: Crew) -> None:
    for seq, move in enumerate(T17_MOVES[:-1], start=1):
        assert submit_move(game, move, seq, crew.referee).ok


def test_finishing_a_game_announces_new_results_after_commit(
    crew: Crew, t17_game: Game, heard: list[dict[str, int]], django_capture_on_commit_callbacks: Any
) -> None:
    play_all_but_last(t17_game, crew)
    assert heard == []  # ordinary moves change no results

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = submit_move(t17_game, T17_MOVES[-1], len(T17_MOVES), crew.referee)
    assert outcome.game_over
    assert heard == []  # not before the results are committed
    for callback in callbacks:
        callback()

    assert heard == [{"game_id": t17_game.pk, "tournament_id": crew.tournament.pk}]


def test_reopening_a_finished_game_announces_that_its_results_are_gone(
    crew: Crew,
    t17_game: Game,
    heard: list[dict[str, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        play_all_but_last(t17_game, crew)
        submit_move(t17_game, T17_MOVES[-1], len(T17_MOVES), crew.referee)
    heard.clear()

    with django_capture_on_commit_callbacks(execute=True):
        request_undo(t17_game, crew.referee, "the last card was misread")

    assert heard == [{"game_id": t17_game.pk, "tournament_id": crew.tournament.pk}]
