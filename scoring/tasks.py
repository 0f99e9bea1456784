"""Celery tasks: thin wrappers taking IDs and plain values, the work done by plain functions.

All run with `acks_late` (settings) and are idempotent, so a redelivery after a lost worker or
an expired visibility timeout only repeats work that converges on the same rows.

Standings recomputes coalesce per tournament: at most one queued and one running, whatever the
number of results that arrive (a recompute reads every result, so one run covers all those
committed before it starts). The flags are a `StandingsQueue` row:

- `request_standings_update` (in the writer's transaction) marks the tournament queued and
  records `update_standings` in the outbox (`games.outbox`) only if it was not queued already;
- `update_standings` takes the running lock, *then* clears the queued flag, *then* recomputes:
  a result committed before the flag is cleared is read by this run, one committed after it
  queues the next run, so none is lost. A run that finds the lock held (another worker runs
  this tournament) stays the queued one and comes back every `LOCK_RETRY_SECONDS`;
- a rescore (the points table changed) is always enqueued: it carries work of its own
  (`rescore=True`) that a plain queued run would not do.

Worker lost mid-run: the lock expires `RUNNING_LOCK_SECONDS` after its holder last finished a
scope (each scope renews it), so recomputes of that tournament wait at most that long; the
unacknowledged task (`acks_late`) is redelivered and recomputes again, which converges. A
redelivered message can clear a flag that a still-queued task had set, or run beside it: that
costs an extra run, never a missed one. A queued flag older than `QUEUED_SECONDS` is ignored,
so a task lost with the broker's data cannot silence later requests.
"""

from __future__ import annotations

import datetime
from typing import Any

from celery import Task, shared_task
from django.db.models import Q
from django.db.utils import IntegrityError, OperationalError
from django.utils import timezone

from games import outbox
from scoring import services, webhooks
from scoring.models import StandingsQueue
from scoring.recompute import run_full_recompute
from scoring.services import record_heartbeat
from scoring.standings import recompute_tournament
from tournaments.models import Tournament

WEBHOOK_MAX_RETRIES = 6
# Longer than one scope's recompute (a second or two at 10,000 entrants, ~4 s at a million
# results): the lock is renewed after each scope, and a dead worker's expires this long after.
RUNNING_LOCK_SECONDS = 60
# How long a queued flag stands for a task in the queue; past it the task is taken for lost.
QUEUED_SECONDS = 120
LOCK_RETRY_SECONDS = 1.0


def _seconds_from_now(seconds: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(seconds=seconds)


def _mark_queued(tournament_id: int) -> bool:
    """Mark the tournament's recompute queued; False when it already was (and not stale)."""
    now = timezone.now()
    not_queued = Q(queued_at__isnull=True) | Q(
        queued_at__lt=now - datetime.timedelta(seconds=QUEUED_SECONDS)
    )
    if StandingsQueue.objects.filter(not_queued, tournament_id=tournament_id).update(queued_at=now):
        return True
    _, created = StandingsQueue.objects.get_or_create(
        tournament_id=tournament_id, defaults={"queued_at": now}
    )
    return created


def request_standings_update(tournament_id: int, *, rescore: bool = False) -> None:
    """Have the tournament's standings recomputed (call in the transaction that changed them):
    records `update_standings` in the outbox unless a run is queued already, which will read
    this commit's results. The flag and the outbox message commit together, so a flag always
    has a task behind it, even when the broker is away. A `rescore` is always recorded (see
    the module docstring)."""
    if rescore or _mark_queued(tournament_id):
        outbox.enqueue("scoring.update_standings", tournament_id=tournament_id, rescore=rescore)


def _take_running_lock(tournament_id: int, task_id: str) -> bool:
    now = timezone.now()
    free = Q(running_until__isnull=True) | Q(running_until__lt=now)
    lock = {"running_until": _seconds_from_now(RUNNING_LOCK_SECONDS), "running_task": task_id}
    if StandingsQueue.objects.filter(free, tournament_id=tournament_id).update(**lock):
        return True
    # No row yet: a task enqueued without a request (a rescore).
    _, created = StandingsQueue.objects.get_or_create(tournament_id=tournament_id, defaults=lock)
    return created


def _renew_running_lock(tournament_id: int, task_id: str) -> None:
    StandingsQueue.objects.filter(tournament_id=tournament_id, running_task=task_id).update(
        running_until=_seconds_from_now(RUNNING_LOCK_SECONDS)
    )


def _release_running_lock(tournament_id: int, task_id: str) -> None:
    # Only our own: past its expiry the lock may have passed to another run.
    StandingsQueue.objects.filter(tournament_id=tournament_id, running_task=task_id).update(
        running_until=None, running_task=""
    )


@shared_task(bind=True, name="scoring.heartbeat")
def heartbeat(self: Task[Any, Any]) -> dict[str, object]:
    beat = record_heartbeat(self.request.hostname or "eager")
    return {"hostname": beat.hostname, "beats": beat.beats, "seen_at": beat.seen_at.isoformat()}


@shared_task(
    bind=True,
    name="scoring.update_standings",
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def update_standings(
    self: Task[Any, Any], tournament_id: int, rescore: bool = False
) -> dict[str, object]:
    """Recompute a tournament's standings, its stages' and its season's, once for every result
    committed before it starts (see the module docstring: the running lock, the queued flag)."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return {"tournament": tournament_id, "changed": [], "missing": True}
    task_id = self.request.id or "unnamed"
    locked = _take_running_lock(tournament_id, task_id)
    if not locked and not self.request.is_eager:
        # Still the queued run: keep the flag fresh so requests meanwhile enqueue nothing, and
        # come back shortly as a new message (not `self.retry`: waiting, however long, must
        # not use up the retries kept for database errors).
        StandingsQueue.objects.filter(tournament_id=tournament_id).update(queued_at=timezone.now())
        update_standings.apply_async(
            (tournament_id,), {"rescore": rescore}, countdown=LOCK_RETRY_SECONDS
        )
        return {"tournament": tournament_id, "changed": [], "waiting": True}
    # Eager (development, tests), the task runs inside the request that committed the results
    # and cannot come back later: it recomputes now, even beside another run (`recompute_scope`'s
    # own per-scope lock keeps concurrent runs correct).
    StandingsQueue.objects.filter(tournament_id=tournament_id).update(queued_at=None)
    try:
        outcomes = recompute_tournament(
            tournament_id,
            rescore=rescore,
            after_each=lambda: _renew_running_lock(tournament_id, task_id),
        )
    except Tournament.DoesNotExist:
        return {"tournament": tournament_id, "changed": [], "missing": True}
    finally:
        if locked:
            _release_running_lock(tournament_id, task_id)
    return {"tournament": tournament_id, "changed": [o.ref.key for o in outcomes if o.changed]}


@shared_task(bind=True, name="scoring.recompute_all", acks_late=True)
def recompute_all(
    self: Task[Any, Any], run_id: int | None = None, tournament_id: int | None = None
) -> dict[str, object]:
    """The periodic full recompute (beat), or an organiser's "recompute now" (`run_id`)."""
    run = run_full_recompute(
        run_id=run_id, tournament_id=tournament_id, task_id=self.request.id or ""
    )
    return {"run": run.pk, "status": run.status, "done": run.done, "changed": run.changed}


@shared_task(name="scoring.resend_pending_webhooks")
def resend_pending_webhooks() -> list[int]:
    """Beat: webhook deliveries whose task was lost get a new one (`webhooks.resend_pending`)."""
    return webhooks.resend_pending()


@shared_task(
    bind=True,
    name="scoring.deliver_webhook",
    acks_late=True,
    autoretry_for=(webhooks.DeliveryFailed,),
    retry_backoff=True,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=WEBHOOK_MAX_RETRIES,
)
def deliver_webhook(self: Task[Any, Any], delivery_id: int) -> dict[str, object]:
    try:
        delivery = webhooks.deliver(delivery_id)
    except webhooks.DeliveryFailed:
        if self.request.retries >= WEBHOOK_MAX_RETRIES:
            webhooks.give_up(delivery_id)
            return {"delivery": delivery_id, "status": "failed"}
        raise
    return {"delivery": delivery_id, "status": delivery.status}


@shared_task(
    name="scoring.recompute_ratings",
    acks_late=True,
    autoretry_for=(OperationalError, IntegrityError),
    retry_backoff=True,
    max_retries=5,
)
def recompute_ratings() -> dict[str, object]:
    """Replay every rated game into the ratings (after a rated round settles, a correction in
    one, a `rated` toggle; and nightly from beat)."""
    outcome = services.recompute_ratings()
    return {"games": outcome.games, "players": outcome.players}
