"""Scoring owns the background-job machinery; its first model tells whether workers are alive."""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time each Celery worker ran the periodic heartbeat task.

    Written by `scoring.tasks.heartbeat` (scheduled by beat), read by `/healthz`, so an operator
    sees at once when standings would stop updating because no worker is consuming the queue.
    """

    hostname = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()
    beats = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"
