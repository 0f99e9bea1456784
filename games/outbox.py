"""The transactional outbox: after-commit work that survives a broker outage.

A write that needs work done after it commits (recompute standings, deliver a webhook, a full
recompute) calls `enqueue(task_name, **kwargs)` inside its transaction. That inserts an
`OutboxMessage` row — committed with the write or rolled back with it — and, after commit,
hands it to Celery at once (`dispatch`). The hand-over waits on the broker for at most its
bounded timeouts (`CELERY_BROKER_TIMEOUT_SECONDS`; no publish retries): if the broker is away,
the row stays and the request answers as usual. `dispatch_pending` (beat, every
`OUTBOX_SWEEP_SECONDS`) hands over whatever is left, so once the broker is back everything
recorded reaches the workers within seconds.

Rows are taken with `SELECT … FOR UPDATE SKIP LOCKED`, so the request's own hand-over and the
sweep never both send one message; a row is deleted in the transaction that sent it. A crash
after the broker accepted a message but before that commit sends it again: every task is
idempotent (they recompute from the database, or check a delivery's status), so it converges.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from kombu import Connection
from kombu.exceptions import OperationalError as BrokerError

from games.models import OutboxMessage

log = logging.getLogger(__name__)

# Messages handed over in one transaction (the sweep goes on with the next batch).
BATCH = 500


def enqueue(task: str, **kwargs: Any) -> OutboxMessage:
    """Record `task(**kwargs)` in the current transaction; it is handed to Celery after commit.
    `kwargs` must be JSON (ids and plain values, as every task here takes)."""
    message = OutboxMessage.objects.create(task=task, kwargs=kwargs)
    transaction.on_commit(partial(dispatch, [message.pk]))
    return message


def dispatch(ids: Iterable[int] | None = None) -> int:
    """Hand messages to Celery (`ids`, or the oldest `BATCH` waiting); returns how many were
    handed over. Stops at the first broker failure: the rest wait for the next sweep."""
    sent: list[int] = []
    with transaction.atomic(), _broker() as broker:
        rows = OutboxMessage.objects.select_for_update(skip_locked=True).order_by("pk")
        if ids is not None:
            rows = rows.filter(pk__in=list(ids))
        for message in rows[:BATCH]:
            try:
                _send(message, broker)
            except BrokerError as error:
                log.warning("broker unavailable; %s waits in the outbox: %s", message, error)
                OutboxMessage.objects.filter(pk=message.pk).update(
                    attempts=F("attempts") + 1,
                    last_error=f"{type(error).__name__}: {error}"[:2000],
                    last_attempt_at=timezone.now(),
                )
                break
            except Exception:
                if not current_app.conf.task_always_eager:
                    raise  # a bug, not an outage: the row stays (rolled back) for a fixed release
                # Eager (the embedded default), the task ran here and failed: as on a worker, that
                # is the task's business (its log, its retries), not a reason to keep the message.
                log.exception("task %s failed", message)
            sent.append(message.pk)
        OutboxMessage.objects.filter(pk__in=sent).delete()
    return len(sent)


def _broker() -> Connection:
    """A connection to hand messages over on: one attempt, each wait bounded (kombu would
    otherwise retry for seconds) — connecting by `REDIS_CONNECT_TIMEOUT_SECONDS`, each reply by
    `REDIS_TIMEOUT_SECONDS`, neither longer than `CELERY_BROKER_TIMEOUT_SECONDS`. Only the
    hand-over is bounded so: a worker's own connection keeps retrying for as long as the broker
    is away. Opened lazily, on the first message sent (never in eager mode)."""
    limit = settings.CELERY_BROKER_TIMEOUT_SECONDS
    connect = min(limit, settings.REDIS_CONNECT_TIMEOUT_SECONDS)
    reply = min(limit, settings.REDIS_TIMEOUT_SECONDS)
    once = {"max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0}
    options = {
        **current_app.conf.broker_transport_options,
        "socket_connect_timeout": connect,
        "socket_timeout": reply,
        **once,
    }
    return current_app.connection_for_write(connect_timeout=connect, transport_options=options)


def _send(message: OutboxMessage, broker: Connection) -> None:
    # `apply_async`, not `send_task`: it honours CELERY_TASK_ALWAYS_EAGER (the embedded
    # default runs the task here and now).
    _task(message.task).apply_async(kwargs=message.kwargs, retry=False, connection=broker)


def _task(name: str) -> Any:
    """The registered task. A web process imports an app's `tasks` module only when something
    uses it: before the first lookup fails, Celery's autodiscovery imports them all."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def dispatch_pending() -> int:
    """The sweep (beat): everything still waiting, oldest first."""
    handed = 0
    while count := dispatch():
        handed += count
        if count < BATCH:
            break
    return handed


def waiting() -> tuple[int, float | None]:
    """How many messages wait, and the age in seconds of the oldest (for readiness)."""
    oldest = OutboxMessage.objects.order_by("pk").values_list("created_at", flat=True).first()
    count = OutboxMessage.objects.count() if oldest is not None else 0
    age = None if oldest is None else round((timezone.now() - oldest).total_seconds(), 1)
    return count, age
