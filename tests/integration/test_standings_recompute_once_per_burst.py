"""With a real Celery worker process on PostgreSQL, standings recomputes coalesce per
tournament: a burst of results during a run queues one more run (at most one queued and one
running), that run counts every result of the burst, and a running lock left by a dead worker
expires, after which the run waiting for it counts the results."""

from __future__ import annotations

import datetime
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from celery.signals import after_task_publish
from django.db import connections, transaction
from django.utils import timezone

from games.live import notify_results_changed
from games.models import GameResult
from scoring.models import StandingsQueue, StandingsVersion
from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.conftest import wait_until, worker_idle
from tests.factories import EntryFactory, StageFactory, TournamentFactory, finished_game
from tests.scoring.conftest import play_random_sets, seat_round
from tests.scoring.oracle import as_lines, recount
from tournaments.models import Stage, Table, Tournament
from tournaments.points import DEFAULT_TIE_BREAKS

pytestmark = pytest.mark.integration


@pytest.fixture
def queued_recomputes() -> Iterator[list[str]]:
    """The ids of the `update_standings` tasks this process sends to the broker."""
    sent: list[str] = []

    def on_publish(sender: str | None = None, headers: Any = None, **kwargs: Any) -> None:
        if sender == "scoring.update_standings":
            sent.append(headers["id"])

    after_task_publish.connect(on_publish, weak=False)
    yield sent
    after_task_publish.disconnect(on_publish)


def _playing(seed: int) -> tuple[Tournament, Stage, list[Table]]:
    """A running tournament of 8 entrants at two tables, one set played, standings computed."""
    tournament = TournamentFactory(status="running")
    stage = StageFactory(tournament=tournament, order=1)
    entries = [
        EntryFactory(tournament=tournament, number=i, status="checked_in") for i in range(1, 9)
    ]
    tables = seat_round(stage, entries)
    play_random_sets(tables, random.Random(seed), sets=1)
    recompute_tournament(tournament.pk)
    return tournament, stage, tables


def _finish_game(tournament: Tournament, table: Table, game_number: int) -> None:
    """A game of the second set ends: its results committed, then announced, as the service
    does (`games.services` sends `results_changed` after commit)."""
    order = [seat.entry for seat in table.seats.order_by("position")]
    random.Random(game_number).shuffle(order)
    game: Any = finished_game(table, order, set_number=2, game_number=game_number)
    notify_results_changed(game.pk, tournament.pk)


def _counted(ref: ScopeRef, tournament: Tournament) -> bool:
    """The scope's standings equal an independent recount of every result committed."""
    results = GameResult.objects.filter(entry__tournament=tournament).select_related(
        "game", "entry"
    )
    return as_lines(standings(ref)) == recount(list(results), list(DEFAULT_TIE_BREAKS))


@contextmanager
def holding(ref: ScopeRef) -> Iterator[None]:
    """Hold the scope's `StandingsVersion` row locked from another connection: a recompute
    reaching that scope waits there, with the tournament's running lock held."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                StandingsVersion.objects.select_for_update().get(key=ref.key)
                locked.set()
                release.wait(90)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10)
    try:
        yield
    finally:
        release.set()
        thread.join()


def test_a_burst_during_a_run_queues_one_more_run_which_counts_every_result(
    real_celery: str, queued_recomputes: list[str]
) -> None:
    tournament, stage, tables = _playing(seed=31)
    tournament_ref, stage_ref = ScopeRef.tournament(tournament.pk), ScopeRef.stage(stage.pk)

    with holding(tournament_ref):
        _finish_game(tournament, tables[0], game_number=1)
        # The run has counted the game in the stage's standings and waits at the tournament's
        # (stages come first: the tournament's order reads theirs).
        wait_until(lambda: _counted(stage_ref, tournament), 30, "the first run")
        assert StandingsQueue.objects.get(tournament=tournament).running_task != ""
        for game_number in range(2, 5):
            for table in tables:
                _finish_game(tournament, table, game_number)
        _finish_game(tournament, tables[1], game_number=1)
        burst_counted_by_first_run = _counted(stage_ref, tournament)

    wait_until(
        lambda: _counted(tournament_ref, tournament) and _counted(stage_ref, tournament),
        60,
        "the run queued during the burst",
    )
    wait_until(lambda: worker_idle(real_celery), 60, "the worker to drain its queue")
    # One run for the first game, one for the eight games of the burst: no more.
    assert len(queued_recomputes) == 2
    assert not burst_counted_by_first_run


def test_a_lock_left_by_a_dead_worker_expires_then_the_waiting_run_counts_the_results(
    real_celery: str, queued_recomputes: list[str]
) -> None:
    tournament, _, tables = _playing(seed=32)
    ref = ScopeRef.tournament(tournament.pk)
    held_until = timezone.now() + datetime.timedelta(seconds=6)
    StandingsQueue.objects.update_or_create(
        tournament=tournament,
        defaults={"running_until": held_until, "running_task": "a-worker-that-died"},
    )

    _finish_game(tournament, tables[0], game_number=1)
    time.sleep(2)  # the queued run is retrying: the lock is still held
    _finish_game(tournament, tables[1], game_number=1)
    counted_while_held = _counted(ref, tournament)

    wait_until(lambda: _counted(ref, tournament), 40, "the run after the lock expired")
    assert timezone.now() >= held_until
    assert not counted_while_held
    # The waiting run stayed the queued one: the second game's request added no other.
    assert len(queued_recomputes) == 1
    wait_until(lambda: worker_idle(real_celery), 60, "the worker to drain its queue")
    lock = StandingsQueue.objects.get(tournament=tournament)
    assert (lock.running_until, lock.running_task, lock.queued_at) == (None, "", None)
