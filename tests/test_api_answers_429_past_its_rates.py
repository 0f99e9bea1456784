"""The API throttles each address (anonymous) and each user (a device token is its user), with
rates from the environment, and a stricter rate where a short PIN is typed: past a rate the
answer is 429 with Retry-After. A referee's phone at a real table stays far below."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.conftest import run_with_settings
from tests.factories import UserFactory


@pytest.mark.django_db
def test_the_table_pin_is_throttled_per_device() -> None:
    device = APIClient()
    device.force_authenticate(UserFactory())
    other = APIClient()
    other.force_authenticate(UserFactory())

    answers = [
        device.post("/api/games/999999/confirm/", {"seat": 0, "pin": "000000"}, format="json")
        for _ in range(31)  # API_THROTTLE_TABLE_PIN: 30/minute
    ]
    elsewhere = other.post("/api/games/999999/confirm/", {"seat": 0, "pin": "0"}, format="json")

    assert {a.status_code for a in answers[:30]} == {404}  # no such game, but counted
    assert answers[30].status_code == 429
    assert 0 < int(answers[30]["Retry-After"]) <= 60
    assert elsewhere.status_code == 404


@pytest.mark.django_db
def test_a_referee_streaming_moves_stays_under_the_user_rate() -> None:
    phone = APIClient()
    phone.force_authenticate(UserFactory())

    # Three moves a second for a minute and a half, as a burst: far past any real table.
    answers = {phone.get("/api/tournaments/").status_code for _ in range(270)}

    assert answers == {200}


SCRIPT = """
import json
import django
django.setup()
from django.test import Client
client = Client()
answers = [client.get("/api/schema/?format=json").status_code for _ in range(4)]
last = client.get("/api/schema/?format=json")
print(json.dumps({"answers": answers, "last": [last.status_code, last.get("Retry-After")]}))
"""


def test_the_anonymous_rate_comes_from_the_environment() -> None:
    seen = run_with_settings(SCRIPT, API_THROTTLE_ANON="3/minute")

    assert seen["answers"] == [200, 200, 200, 429]
    assert seen["last"][0] == 429 and 0 < int(seen["last"][1]) <= 60
