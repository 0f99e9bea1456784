"""Celery tasks: thin wrappers taking IDs and plain values, the work done by plain functions.

All run with `acks_late` (settings) and are idempotent, so a redelivery after a lost worker or
an expired visibility timeout only repeats work that converges on the same rows.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db.utils import OperationalError

from scoring import webhooks
from scoring.recompute import run_full_recompute
from scoring.services import record_heartbeat
from scoring.standings import recompute_tournament
from tournaments.models import Tournament

WEBHOOK_MAX_RETRIES = 6


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
    """Recompute a tournament's standings, its stages' and its season's (after a game ends)."""
    try:
        outcomes = recompute_tournament(tournament_id, rescore=rescore)
    except Tournament.DoesNotExist:
        return {"tournament": tournament_id, "changed": [], "missing": True}
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
