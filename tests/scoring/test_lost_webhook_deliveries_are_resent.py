"""A webhook delivery whose task was lost (a broker that lost its data) is sent again by beat's
`resend_pending_webhooks`; one still retrying, or still waiting in the outbox, is not sent twice.
Against a real HTTP receiver on 127.0.0.1; Celery runs eagerly."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from games.models import OutboxMessage
from scoring import webhooks
from scoring.models import WebhookDelivery, WebhookEndpoint
from tests.games.conftest import Crew
from tests.scoring.conftest import Receiver

LONG_AGO = timezone.now() - datetime.timedelta(seconds=webhooks.RETRY_LOST_AFTER_SECONDS + 60)


def _delivery(endpoint: WebhookEndpoint, **when: Any) -> WebhookDelivery:
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, event="game.finished", body='{"event":"game.finished"}'
    )
    WebhookDelivery.objects.filter(pk=delivery.pk).update(**when)  # created_at is auto_now_add
    return delivery


def test_a_delivery_whose_task_was_lost_is_sent_again(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, receiver.url, ["game.finished"]
    )
    never_tried = _delivery(endpoint, created_at=LONG_AGO)
    tried_long_ago = _delivery(endpoint, created_at=LONG_AGO, last_attempt_at=LONG_AGO, attempts=2)

    with django_capture_on_commit_callbacks(execute=True):
        resent = webhooks.resend_pending()

    assert sorted(resent) == sorted([never_tried.pk, tried_long_ago.pk])
    assert len(receiver.received) == 2
    statuses = WebhookDelivery.objects.values_list("status", flat=True)
    assert set(statuses) == {WebhookDelivery.Status.DELIVERED}


def test_a_delivery_never_attempted_is_taken_for_lost_within_minutes(
    crew: Crew,
    receiver: Receiver,
    settings: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, receiver.url, ["game.finished"]
    )
    minutes_ago = timezone.now() - datetime.timedelta(
        seconds=settings.WEBHOOK_UNSENT_AFTER_SECONDS + 5
    )
    unsent = _delivery(endpoint, created_at=minutes_ago)
    # Failed a few minutes ago: its retry may still be on its way (backoff up to 10 minutes).
    _delivery(endpoint, created_at=minutes_ago, last_attempt_at=minutes_ago, attempts=1)

    with django_capture_on_commit_callbacks(execute=True):
        resent = webhooks.resend_pending()

    assert resent == [unsent.pk]
    assert len(receiver.received) == 1


def test_a_delivery_still_retrying_or_waiting_in_the_outbox_is_left_alone(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, receiver.url, ["game.finished"]
    )
    _delivery(endpoint)  # just logged: its task is on its way
    _delivery(endpoint, created_at=LONG_AGO, last_attempt_at=timezone.now(), attempts=3)
    waiting = _delivery(endpoint, created_at=LONG_AGO)
    OutboxMessage.objects.create(task="scoring.deliver_webhook", kwargs={"delivery_id": waiting.pk})
    _delivery(endpoint, created_at=LONG_AGO, status=WebhookDelivery.Status.FAILED)

    with django_capture_on_commit_callbacks(execute=True):
        resent = webhooks.resend_pending()

    assert resent == []
    assert receiver.received == []
