"""Webhooks are signed, retried after a failure, logged — against a real HTTP server on
127.0.0.1 that the test starts (no mocks)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games.models import Game
from games.services import record_quick_result, start_game
from scoring import webhooks
from scoring.models import WebhookDelivery, WebhookEndpoint
from tests.games.conftest import Crew
from tests.scoring.conftest import Receiver


def _finish_a_quick_game(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    record_quick_result(game, crew.referee, [1, 0, 2, 3])


def test_a_finished_game_is_posted_signed(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks
) -> None:
    endpoint = webhooks.create_endpoint(
        crew.tournament, crew.organiser, receiver.url, ["game.finished"]
    )

    with django_capture_on_commit_callbacks(execute=True):
        _finish_a_quick_game(crew)

    ((headers, body),) = receiver.received
    expected = "sha256=" + hmac.new(endpoint.secret.encode(), body, hashlib.sha256).hexdigest()
    assert headers["x-kakumei-signature"] == expected
    assert headers["x-kakumei-event"] == "game.finished"
    payload = json.loads(body)
    assert headers["x-kakumei-delivery"] == payload["delivery"]
    assert [(r["player"], r["place"], r["points"]) for r in payload["data"]["results"]] == [
        ("Baba", 1, 3),
        ("Aoki", 2, 2),
        ("Chiba", 3, 1),
        ("Doi", 4, 0),
    ]
    assert "hands" not in body.decode()
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 1, 200)


def test_a_500_is_logged_and_the_retry_sends_the_same_signed_body(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks
) -> None:
    receiver.statuses = [500]
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["game.finished"])

    with django_capture_on_commit_callbacks(execute=True):
        _finish_a_quick_game(crew)
    delivery = WebhookDelivery.objects.get()
    logged = (delivery.status, delivery.attempts, delivery.response_code, delivery.last_error)
    # What Celery's retry runs (eager mode cannot retry while propagating errors; the backoff
    # itself is exercised against the real worker in test_scoring_with_a_real_worker).
    webhooks.deliver(delivery.pk)

    assert logged == ("pending", 1, 500, "HTTP 500")
    assert len(receiver.received) == 2
    first, second = (h["x-kakumei-signature"] for h, _ in receiver.received)
    assert first == second
    assert receiver.received[0][1] == receiver.received[1][1]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 2, 200)


def test_standings_changes_are_posted(
    crew: Crew, receiver: Receiver, django_capture_on_commit_callbacks
) -> None:
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["standings.changed"])

    with django_capture_on_commit_callbacks(execute=True):
        _finish_a_quick_game(crew)

    events = [json.loads(body) for _, body in receiver.received]
    scopes = sorted(e["data"]["scope"]["kind"] for e in events)
    assert scopes == ["stage", "tournament"]
    leader = events[0]["data"]["standings"][0]
    assert (leader["player"], leader["points"], leader["rank"]) == ("Baba", 3, 1)


def test_an_event_nobody_subscribes_to_is_neither_assembled_nor_logged(crew: Crew) -> None:
    """Every game's end passes through here: without a subscriber it costs one query."""
    WebhookEndpoint.objects.create(
        tournament=crew.tournament, url="https://example.org/hook", events=["stage.cut"]
    )
    built: list[str] = []

    def builder(event: str) -> Callable[[], dict[str, object]]:
        def build() -> dict[str, object]:
            built.append(event)
            return {"event": event}

        return build

    assert webhooks.emit(crew.tournament.pk, "game.finished", builder("game.finished")) == []
    assert webhooks.emit(crew.tournament.pk, "stage.cut", builder("stage.cut")) != []

    assert built == ["stage.cut"]
    assert list(WebhookDelivery.objects.values_list("event", flat=True)) == ["stage.cut"]


def test_an_unreachable_endpoint_is_marked_failed_on_its_last_retry(crew: Crew) -> None:
    endpoint = WebhookEndpoint.objects.create(
        tournament=crew.tournament, url="http://127.0.0.1:9/closed", events=["game.finished"]
    )
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event="game.finished", body="{}")
    from scoring.tasks import WEBHOOK_MAX_RETRIES, deliver_webhook

    # The attempt Celery makes after WEBHOOK_MAX_RETRIES retries.
    answer = deliver_webhook.apply(args=[delivery.pk], retries=WEBHOOK_MAX_RETRIES).get()

    delivery.refresh_from_db()
    assert answer == {"delivery": delivery.pk, "status": "failed"}
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("failed", 1, None)
    assert "Connection refused" in delivery.last_error or "URLError" in delivery.last_error


def test_only_http_urls_are_accepted(crew: Crew) -> None:
    with pytest.raises(ValidationError):
        webhooks.create_endpoint(
            crew.tournament, crew.organiser, "file:///etc/passwd", ["stage.cut"]
        )


def test_only_the_tournaments_organiser_manages_its_webhooks(
    crew: Crew, receiver: Receiver
) -> None:
    for stranger in (crew.outsider_organiser, crew.referee, crew.head_referee):
        with pytest.raises(PermissionDenied):
            webhooks.create_endpoint(crew.tournament, stranger, receiver.url, ["stage.cut"])
