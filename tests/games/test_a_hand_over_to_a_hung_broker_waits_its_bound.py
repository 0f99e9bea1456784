"""A write's hand-over of its task to the broker (`games.outbox`) waits on Redis at most the
bounded connect and reply timeouts, even when the broker takes the connection and never answers
(a hung Redis, not a stopped one): the request goes on, and the task waits in the outbox."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import transaction

from config.celery import app as celery_app
from games import outbox
from games.models import OutboxMessage


@pytest.fixture
def hung_broker() -> Iterator[str]:
    """An address that takes connections and never answers, as the app's broker."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
        conf = celery_app.conf
        previous = conf.broker_url, conf.broker_write_url, conf.task_always_eager
        conf.broker_url, conf.broker_write_url, conf.task_always_eager = url, url, False
        try:
            yield url
        finally:
            conf.broker_url, conf.broker_write_url, conf.task_always_eager = previous


@pytest.mark.django_db
def test_a_hung_broker_holds_a_write_up_for_a_fraction_of_a_second(
    hung_broker: str, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=False), transaction.atomic():
        message = outbox.enqueue("scoring.heartbeat")  # the write's hand-over, run below

    started = time.monotonic()
    handed_over = outbox.dispatch([message.pk])
    took = time.monotonic() - started

    assert handed_over == 0
    assert took < 0.6  # REDIS_CONNECT_TIMEOUT_SECONDS 0.1 + REDIS_TIMEOUT_SECONDS 0.2, no retry
    waiting = OutboxMessage.objects.get(pk=message.pk)
    assert waiting.attempts >= 1 and waiting.last_error
