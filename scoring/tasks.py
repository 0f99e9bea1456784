"""Celery tasks: thin wrappers taking IDs and plain values, the work done by services."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task

from scoring.services import record_heartbeat


@shared_task(bind=True, name="scoring.heartbeat")
def heartbeat(self: Task[Any, Any]) -> dict[str, object]:
    beat = record_heartbeat(self.request.hostname or "eager")
    return {"hostname": beat.hostname, "beats": beat.beats, "seen_at": beat.seen_at.isoformat()}
