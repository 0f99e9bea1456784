"""Scoring's domain actions."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from scoring.models import WorkerHeartbeat


def record_heartbeat(hostname: str) -> WorkerHeartbeat:
    """Note that the worker `hostname` is alive (an upsert, safe under concurrent workers)."""
    now = timezone.now()
    heartbeat, created = WorkerHeartbeat.objects.get_or_create(
        hostname=hostname, defaults={"seen_at": now, "beats": 1}
    )
    if not created:
        # Increment in SQL so two deliveries of the same beat never lose a count.
        WorkerHeartbeat.objects.filter(pk=heartbeat.pk).update(seen_at=now, beats=F("beats") + 1)
        heartbeat.refresh_from_db()
    return heartbeat
