"""End to end with a real Celery worker process on PostgreSQL: a simulated tournament is scored
by the worker; a worker killed in the middle of a full recompute is replaced and the
redelivered task converges; a webhook answered 500 is retried with backoff by the worker."""

from __future__ import annotations

import os
import random
import signal
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.core.management import call_command

from games.models import GameResult
from scoring.models import RecomputeRun, WebhookDelivery, WebhookEndpoint
from scoring.recompute import start_run
from scoring.standings import ScopeRef, standings
from scoring.tasks import deliver_webhook, recompute_all
from tests.conftest import (
    database_url_for_test_db,
    spawn_worker,
    stop_worker,
    wait_until,
    worker_idle,
)
from tests.factories import EntryFactory, StageFactory, TournamentFactory
from tests.scoring.conftest import Receiver, play_random_sets, seat_round
from tests.scoring.oracle import as_lines, recount
from tournaments.models import Tournament
from tournaments.points import DEFAULT_TIE_BREAKS

pytestmark = pytest.mark.integration
KEYS = list(DEFAULT_TIE_BREAKS)


def _expected(tournament: Tournament) -> dict[int, dict[str, object]]:
    results = GameResult.objects.filter(entry__tournament=tournament).select_related(
        "game", "entry"
    )
    return recount(list(results), KEYS)


def _converged(tournament: Tournament) -> bool:
    return as_lines(standings(ScopeRef.tournament(tournament.pk))) == _expected(tournament)


def test_a_simulated_tournament_is_scored_by_the_worker(real_celery: str) -> None:
    call_command("simulate_tournament", players=8, rounds=1, sets=1, seed=21, slug="sim-worker")
    tournament = Tournament.objects.get(slug="sim-worker")

    wait_until(lambda: _converged(tournament), 60, "the worker's standings")

    assert len(_expected(tournament)) == 8
    # Every game's end and confirmation, the round's publication and completion each queued a
    # recompute: let the worker finish them before the test's tables are emptied.
    wait_until(lambda: worker_idle(real_celery), 60, "the worker to drain its queue")


def test_a_failed_webhook_is_retried_by_the_worker(real_celery: str, receiver: Receiver) -> None:
    receiver.statuses = [500, 503]
    tournament = TournamentFactory(status="running")
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament, url=receiver.url, events=["stage.cut"]
    )
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event="stage.cut", body="{}")

    deliver_webhook.delay(delivery.pk)

    def delivered() -> bool:
        delivery.refresh_from_db()
        return delivery.status == "delivered"

    # Backoff 1 s then 2 s (retry_backoff): well within the deadline.
    wait_until(delivered, 30, "the third attempt")
    assert (delivery.attempts, delivery.response_code, delivery.last_error) == (3, 200, "HTTP 503")
    assert len(receiver.received) == 3


@pytest.fixture
def killable_worker(celery_worker_process: str) -> Iterator[Callable[[], object]]:
    """Start workers on a private queue (so the session worker never takes their task)."""
    started: list[object] = []
    database_url = database_url_for_test_db()

    def start() -> object:
        node = f"kakumei-restart-{uuid.uuid4().hex[:8]}@localhost"
        worker = spawn_worker(
            database_url,
            node,
            queue="restart-test",
            log_name="celery-restart-worker",
            extra_env={
                "SCORING_RECOMPUTE_PAUSE_SECONDS": "0.4",
                "CELERY_VISIBILITY_TIMEOUT": "6",
                "CELERY_UNACKED_RESTORE_SECONDS": "1",
            },
        )
        started.append(worker)
        return worker

    yield start
    for worker in started:
        stop_worker(worker)  # type: ignore[arg-type]


def test_a_worker_killed_mid_recompute_is_replaced_and_the_run_converges(
    real_celery: str, killable_worker: Callable[[], object]
) -> None:
    rng = random.Random(99)
    tournaments = []
    for n in range(8):
        tournament = TournamentFactory(slug=f"restart-{n}", status="running")
        stage = StageFactory(tournament=tournament, order=1)
        entries = [
            EntryFactory(tournament=tournament, number=i, status="checked_in") for i in range(1, 5)
        ]
        play_random_sets(seat_round(stage, entries), rng, sets=1)
        tournaments.append(tournament)
    first = killable_worker()
    run = start_run()

    recompute_all.apply_async(kwargs={"run_id": run.pk}, queue="restart-test")

    def part_done() -> bool:
        run.refresh_from_db()
        return run.total > 0 and 2 <= run.done < run.total

    wait_until(part_done, 60, "the recompute to get under way")
    os.kill(first.pid, signal.SIGKILL)  # type: ignore[attr-defined]
    first.wait()  # type: ignore[attr-defined]
    run.refresh_from_db()
    assert run.status == "running" and run.done < run.total
    killable_worker()  # the replacement: it receives the unacknowledged task again

    def finished() -> bool:
        run.refresh_from_db()
        return run.status == "done"

    wait_until(finished, 90, "the redelivered recompute")
    assert (run.done, run.total) == (16, 16)
    assert all(_converged(t) for t in tournaments)
    assert RecomputeRun.objects.filter(status="failed").count() == 0
