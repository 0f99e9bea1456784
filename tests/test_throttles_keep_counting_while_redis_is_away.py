"""The API throttles fail open on the cache, not closed: with Redis down a request is answered
as usual (never a 500 for want of its counter), and each process goes on counting in its own
memory (afresh: what Redis counted is out of reach), so a client past a rate is still told 429
with Retry-After."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.conftest import RedisServer
from tests.factories import UserFactory


@pytest.mark.django_db
def test_with_redis_down_the_table_pin_is_still_throttled_per_device(
    redis_cache: RedisServer,
) -> None:
    device = APIClient()
    device.force_authenticate(UserFactory())
    other = APIClient()
    other.force_authenticate(UserFactory())
    first = device.post("/api/games/999999/confirm/", {"seat": 0, "pin": "000000"}, format="json")

    redis_cache.stop()
    answers = [
        device.post("/api/games/999999/confirm/", {"seat": 0, "pin": "000000"}, format="json")
        for _ in range(31)  # API_THROTTLE_TABLE_PIN: 30/minute, counted afresh in memory
    ]
    elsewhere = other.post("/api/games/999999/confirm/", {"seat": 0, "pin": "0"}, format="json")

    assert first.status_code == 404  # no such game, but counted
    assert {a.status_code for a in answers[:30]} == {404}
    assert answers[30].status_code == 429
    assert 0 < int(answers[30]["Retry-After"]) <= 60
    assert elsewhere.status_code == 404
