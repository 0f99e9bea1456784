"""Scoring hears of every change to a game's results inside the transaction that made it, so
what it records (a standings recompute, webhooks: the outbox) commits with the results or not
at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from games import outbox
from games.live import results_changed
from games.models import Game, GameResult, OutboxMessage
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


class RolledBack(Exception):
    pass


def play_all_but_last(game: Game, crew: Crew) -> None:
    for seq, move in enumerate(T17_MOVES[:-1], start=1):
        assert submit_move(game, move, seq, crew.referee).ok


def standings_requests(crew: Crew) -> list[OutboxMessage]:
    return list(
        OutboxMessage.objects.filter(
            task="scoring.update_standings", kwargs__tournament_id=crew.tournament.pk
        )
    )


def test_finishing_a_game_announces_its_results_with_them(
    crew: Crew, t17_game: Game, heard: list[dict[str, int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        play_all_but_last(t17_game, crew)
    assert heard == []  # ordinary moves change no results
    outbox.dispatch_pending()  # what setting up the table recorded, as the sweep would
    assert standings_requests(crew) == []

    with django_capture_on_commit_callbacks(execute=False):
        outcome = submit_move(t17_game, T17_MOVES[-1], len(T17_MOVES), crew.referee)

    assert outcome.game_over
    assert heard == [{"game_id": t17_game.pk, "tournament_id": crew.tournament.pk}]
    # Before any after-commit step ran, the recompute is recorded beside the results.
    assert len(standings_requests(crew)) == 1
    assert GameResult.objects.filter(game=t17_game).count() == 4


def test_a_write_rolled_back_leaves_no_request_behind(
    crew: Crew, t17_game: Game, heard: list[dict[str, int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        play_all_but_last(t17_game, crew)
    outbox.dispatch_pending()

    with pytest.raises(RolledBack), transaction.atomic():
        assert submit_move(t17_game, T17_MOVES[-1], len(T17_MOVES), crew.referee).game_over
        raise RolledBack  # e.g. the process dies before the commit

    assert standings_requests(crew) == []
    assert not GameResult.objects.filter(game=t17_game).exists()


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
