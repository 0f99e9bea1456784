"""Deployed, the API throttles are on and count in the shared Redis cache, on its own Redis
database (not the broker's): every gunicorn worker and process sees the same counts, per
visitor address and per signed-in user (docs/deployment.md)."""

from __future__ import annotations

import pytest
import redis

from tests.games.conftest import Crew
from tests.games.conftest import crew as crew  # the referee crew fixture, shared
from tests.production.conftest import Production, Visitor

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def keys(production: Production, url: str, pattern: str) -> list[str]:
    client = redis.Redis.from_url(url)
    return [key.decode() for key in client.scan_iter(f"{production.prefix}:*{pattern}*")]


def test_throttle_counts_live_in_the_shared_cache(production: Production, crew: Crew) -> None:
    visitor = Visitor(production.origin)
    status, _ = visitor.api("GET", f"/api/tournaments/{crew.tournament.slug}/")
    assert status == 200
    visitor.log_in(crew.referee.username, "correct horse battery")
    status, _ = visitor.api("GET", f"/api/tournaments/{crew.tournament.slug}/")
    assert status == 200

    assert keys(production, production.cache_url, "throttle_anon_127.0.0.1")
    assert keys(production, production.cache_url, f"throttle_user_{crew.referee.pk}")
    # The cache's own database: nothing of it on the broker's.
    assert production.cache_url != production.env["CELERY_BROKER_URL"]
    assert not keys(production, production.env["CELERY_BROKER_URL"], "throttle_")
