"""Celery tasks of the games app: the outbox sweep (beat)."""

from __future__ import annotations

from celery import shared_task

from games import outbox


@shared_task(name="games.dispatch_outbox", ignore_result=True)
def dispatch_outbox() -> int:
    """Hand to Celery what writes recorded while the broker was away (`games.outbox`)."""
    return outbox.dispatch_pending()
