"""Wrong device tokens count against the client's address: past the `failed-credentials` rate
(60 a minute, API_THROTTLE_FAILED_CREDENTIALS) that address gets 429 with Retry-After before its
token is even looked at — a right token too — while another address is answered as before.
Behind a proxy (PROXY_COUNT) the visitor's address counts, not the proxy's."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.auth import issue_device_token
from games.models import DeviceToken
from tests.conftest import run_with_settings
from tests.factories import UserFactory

RATE = 60  # failed credentials a minute per address, as docs/deployment.md documents


def device(address: str, key: str, **headers: str) -> Client:
    return Client(REMOTE_ADDR=address, HTTP_AUTHORIZATION=f"Token {key}", **headers)


def bogus(number: int) -> str:
    return f"kk_guess{number:040d}"


@pytest.mark.django_db
def test_a_flood_of_bogus_tokens_gets_429_from_its_address_only() -> None:
    token, raw = issue_device_token(UserFactory(), "table 1 phone")

    answers = [device("203.0.113.7", bogus(n)).get("/api/tournaments/") for n in range(RATE + 20)]
    right_from_there = device("203.0.113.7", raw).get("/api/tournaments/")
    token.refresh_from_db()
    bogus_elsewhere = device("198.51.100.20", bogus(999)).get("/api/tournaments/")
    right_elsewhere = device("198.51.100.20", raw).get("/api/tournaments/")

    statuses = [a.status_code for a in answers]
    assert statuses[:RATE] == [403] * RATE  # refused as a bad token
    assert statuses[RATE:] == [429] * 20
    assert all(0 < int(a["Retry-After"]) <= 60 for a in answers[RATE:])
    assert {a.json()["code"] for a in answers[RATE:]} == {"throttled"}
    # The right token from the flooding address is not even looked at…
    assert right_from_there.status_code == 429
    assert token.last_used_at is None
    # …and the rest of the world is answered as before.
    assert bogus_elsewhere.status_code == 403
    assert right_elsewhere.status_code == 200


@pytest.mark.django_db
def test_a_write_with_a_bogus_token_is_refused_before_it_reaches_the_view() -> None:
    for n in range(RATE):
        assert device("203.0.113.7", bogus(n)).post("/api/games/1/confirm/").status_code == 401

    answer = device("203.0.113.7", bogus(RATE)).post("/api/games/1/confirm/")

    assert answer.status_code == 429


@pytest.mark.django_db
def test_requests_without_a_token_or_with_a_right_one_are_not_counted() -> None:
    _, raw = issue_device_token(UserFactory(), "table 1 phone")
    for _ in range(RATE + 5):
        assert device("203.0.113.7", raw).get("/api/tournaments/").status_code == 200
        assert Client(REMOTE_ADDR="203.0.113.7").get("/api/tournaments/").status_code == 200

    assert device("203.0.113.7", bogus(1)).get("/api/tournaments/").status_code == 403


@pytest.mark.django_db
def test_behind_a_proxy_each_visitor_counts_for_itself(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = "10.0.0.2"  # every request arrives from the proxy, which names the visitor

    flood = [
        device(proxy, bogus(n), HTTP_X_FORWARDED_FOR="203.0.113.7").get("/api/tournaments/")
        for n in range(RATE + 1)
    ]
    other = device(proxy, bogus(0), HTTP_X_FORWARDED_FOR="198.51.100.20").get("/api/tournaments/")

    assert flood[-1].status_code == 429
    assert other.status_code == 403
    assert DeviceToken.objects.count() == 0


SCRIPT = """
import json
import django
django.setup()
from django.test import Client
client = Client(HTTP_AUTHORIZATION="Token not one-key")  # refused before any lookup
answers = [client.get("/api/schema/?format=json").status_code for _ in range(4)]
print(json.dumps({"answers": answers}))
"""


def test_the_rate_comes_from_the_environment() -> None:
    seen = run_with_settings(SCRIPT, API_THROTTLE_FAILED_CREDENTIALS="3/minute")

    assert seen["answers"] == [403, 403, 403, 429]
