"""Standings requests coalesce per tournament (`scoring.tasks.request_standings_update`): while
a run is queued, a request adds none (that run will read its results); a stale flag, a rescore
and a run beside another worker's lock are never swallowed. Each request is made in a
transaction that commits, so its outbox message is handed over; Celery runs eagerly here. The
real worker's side is tests/integration/test_standings_recompute_once_per_burst.py."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from games.models import GameResult
from scoring import tasks
from scoring.models import Standing, StandingsQueue
from scoring.standings import ScopeRef, standings
from scoring.tasks import QUEUED_SECONDS
from tests.scoring.conftest import Cup, play_random_sets, seat_round
from tournaments.models import Tournament


def _ago(seconds: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=seconds)


Request = Callable[..., None]


@pytest.fixture
def request_standings_update(django_capture_on_commit_callbacks: Callable[..., Any]) -> Request:
    """`scoring.tasks.request_standings_update` in a transaction that commits."""

    def request(tournament_id: int, *, rescore: bool = False) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            tasks.request_standings_update(tournament_id, rescore=rescore)

    return request


def _points(cup: Cup) -> dict[int, int]:
    return {row.entry_id: row.points for row in standings(ScopeRef.tournament(cup.tournament.pk))}


def test_a_request_while_a_run_is_queued_adds_none(
    cup: Cup, request_standings_update: Request
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(11), sets=1)
    StandingsQueue.objects.create(tournament=cup.tournament, queued_at=timezone.now())

    request_standings_update(cup.tournament.pk)

    # The queued run (not this request) will read the results.
    assert not Standing.objects.filter(tournament=cup.tournament).exists()


def test_a_run_clears_the_flag_so_the_next_result_is_counted(
    cup: Cup, request_standings_update: Request
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(12), sets=1)
    request_standings_update(cup.tournament.pk)
    GameResult.objects.filter(entry=cup.entries[0]).update(points=40)

    request_standings_update(cup.tournament.pk)

    queue = StandingsQueue.objects.get(tournament=cup.tournament)
    assert (queue.queued_at, queue.running_until, queue.running_task) == (None, None, "")
    assert _points(cup)[cup.entries[0].pk] == 40 * 4  # four games in one set


def test_a_flag_older_than_a_queued_task_can_wait_is_taken_for_lost(
    cup: Cup, request_standings_update: Request
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(13), sets=1)
    StandingsQueue.objects.create(tournament=cup.tournament, queued_at=_ago(QUEUED_SECONDS + 1))

    request_standings_update(cup.tournament.pk)

    assert len(_points(cup)) == len(cup.entries)


def test_a_rescore_is_never_coalesced_into_a_plain_run(
    cup: Cup, request_standings_update: Request
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(14), sets=1)
    request_standings_update(cup.tournament.pk)
    table = {**cup.tournament.points_table, "places": {"4": [10, 5, 1, 0]}}
    table.pop("last_game_bonus", None)
    Tournament.objects.filter(pk=cup.tournament.pk).update(points_table=table)
    StandingsQueue.objects.filter(tournament=cup.tournament).update(queued_at=timezone.now())

    request_standings_update(cup.tournament.pk, rescore=True)

    assert sum(_points(cup).values()) == 8 * (10 + 5 + 1 + 0)  # 4 games at each of 2 tables


def test_an_eager_run_beside_another_workers_lock_still_counts_and_leaves_it(
    cup: Cup, request_standings_update: Request
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(15), sets=1)
    held_until = timezone.now() + datetime.timedelta(seconds=30)
    StandingsQueue.objects.create(
        tournament=cup.tournament, running_until=held_until, running_task="another-worker"
    )

    request_standings_update(cup.tournament.pk)

    queue = StandingsQueue.objects.get(tournament=cup.tournament)
    assert len(_points(cup)) == len(cup.entries)
    assert (queue.running_until, queue.running_task) == (held_until, "another-worker")
    assert queue.queued_at is None
