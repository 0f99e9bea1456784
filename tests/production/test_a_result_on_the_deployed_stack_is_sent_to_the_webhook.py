"""Deployed, a game ended through gunicorn's API is announced to the tournament's webhook
endpoint by the Celery worker: one signed `game.finished` delivery reaches the receiver (a
server this test runs on loopback), naming the game and its results."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from games.auth import issue_device_token
from scoring import webhooks
from tests.conftest import wait_until
from tests.games.conftest import Crew
from tests.games.conftest import crew as crew  # the referee crew fixture, shared
from tests.production.conftest import Production, Visitor
from tests.scoring.conftest import Receiver
from tests.scoring.conftest import receiver as receiver  # a webhook receiver on loopback

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_finished_game_is_delivered_signed_to_the_webhook(
    production: Production, crew: Crew, receiver: Receiver
) -> None:
    endpoint = webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url,
                                        ["game.finished"])  # fmt: skip
    _, token = issue_device_token(crew.referee, "phone")
    device = Visitor(production.origin)
    tables = f"/api/tables/{crew.table.pk}/games/"
    status, game = device.api("POST", tables, {"mode": "quick"}, token)
    assert status == 201, game

    status, recorded = device.api(
        "POST", f"/api/games/{game['id']}/quick-result/", {"finishing_order": [0, 1, 2, 3]}, token
    )

    assert status == 201, recorded
    wait_until(lambda: len(receiver.received) >= 1, 30, "the webhook delivery")
    headers, body = receiver.received[0]
    assert headers["x-kakumei-event"] == "game.finished"
    signature = "sha256=" + hmac.new(endpoint.secret.encode(), body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["x-kakumei-signature"], signature)
    sent = json.loads(body)
    assert sent["data"]["game"]["id"] == game["id"]
    assert len(receiver.received) == 1
