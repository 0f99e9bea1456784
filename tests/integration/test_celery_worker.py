"""A task enqueued here is run by the separate worker process, on PostgreSQL, and answers back."""

from __future__ import annotations

import pytest

from scoring.models import WorkerHeartbeat
from scoring.tasks import heartbeat

pytestmark = pytest.mark.integration


def test_heartbeat_round_trips_through_the_worker_process(real_celery: str) -> None:
    # Nothing in the product reads a task's result (none is stored); this test asks for one.
    result = heartbeat.apply_async(ignore_result=False)

    answer = result.get(timeout=30)

    # The task ran in the worker (its node name), not eagerly in this process...
    assert answer["hostname"] == real_celery
    # ...and what it wrote to PostgreSQL is committed and visible here.
    row = WorkerHeartbeat.objects.get(hostname=real_celery)
    assert row.beats == answer["beats"] == 1


def test_repeated_heartbeats_count_up_without_losing_beats(real_celery: str) -> None:
    results = [heartbeat.apply_async(ignore_result=False) for _ in range(5)]

    answers = [r.get(timeout=30) for r in results]

    assert sorted(a["beats"] for a in answers) == [1, 2, 3, 4, 5]
    assert WorkerHeartbeat.objects.get(hostname=real_celery).beats == 5
