"""The outbox (`games.outbox`): a task recorded in a write's transaction commits or rolls back
with it, is handed to Celery after commit, and is handed over once only — even when the request
and beat's sweep reach for it at the same moment. Celery runs eagerly here (the task runs when
handed over); the broker outage itself is tests/integration/test_broker_outage_costs_nothing.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections, transaction

from games import outbox
from games.models import OutboxMessage
from scoring.models import WorkerHeartbeat
from tests.conftest import ROOT, database_url_for_test_db

HEARTBEAT = "scoring.heartbeat"  # each run counts one beat


def heartbeats() -> int:
    return sum(WorkerHeartbeat.objects.values_list("beats", flat=True))


class RolledBack(Exception):
    pass


@pytest.mark.django_db
def test_a_task_is_handed_over_after_its_transaction_commits(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        outbox.enqueue(HEARTBEAT)
    assert OutboxMessage.objects.count() == 1
    assert heartbeats() == 0  # nothing ran before the commit

    for callback in after_commit:
        callback()

    assert heartbeats() == 1
    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db
def test_a_task_rolled_back_with_its_write_is_never_handed_over(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RolledBack),
        transaction.atomic(),
    ):
        outbox.enqueue(HEARTBEAT)
        raise RolledBack

    assert not OutboxMessage.objects.exists()
    assert heartbeats() == 0


@pytest.mark.django_db
def test_the_sweep_hands_over_everything_left_waiting() -> None:
    OutboxMessage.objects.bulk_create(OutboxMessage(task=HEARTBEAT) for _ in range(3))

    assert outbox.dispatch_pending() == 3

    assert heartbeats() == 3
    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_message_being_handed_over_elsewhere_is_skipped_not_sent_twice() -> None:
    message = OutboxMessage.objects.create(task=HEARTBEAT)
    locked, release = threading.Event(), threading.Event()

    def another_dispatcher() -> None:
        try:
            with transaction.atomic():
                OutboxMessage.objects.select_for_update().get(pk=message.pk)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=another_dispatcher)
    holder.start()
    try:
        assert locked.wait(10)
        assert outbox.dispatch() == 0  # skipped, not waited for, not sent
        assert heartbeats() == 0
    finally:
        release.set()
        holder.join()
    assert outbox.dispatch() == 1
    assert heartbeats() == 1


PROBE = """
import json, django
django.setup()
from games import outbox
from games.models import OutboxMessage
message = OutboxMessage.objects.create(task="scoring.deliver_webhook", kwargs={"delivery_id": 0})
print(json.dumps({"handed": outbox.dispatch([message.pk])}))
"""


@pytest.mark.django_db(transaction=True)
def test_a_fresh_process_hands_over_tasks_of_modules_it_never_imported() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url_for_test_db(),
        "CELERY_TASK_ALWAYS_EAGER": "True",
    }

    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert "NotRegistered" not in out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"handed": 1}
    assert not OutboxMessage.objects.exists()
