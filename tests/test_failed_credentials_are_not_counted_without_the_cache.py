"""With the cache (Redis) unreachable, failed credentials are neither counted nor used to refuse:
the credential is checked as usual and nothing raises, so a Redis outage never stops a device
from authenticating because of this count."""

from __future__ import annotations

from typing import Any

from django.test import RequestFactory

from config import throttling
from tests.conftest import free_port


def test_an_unreachable_cache_neither_counts_nor_refuses(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
        }
    }
    request = RequestFactory().get("/api/tournaments/", REMOTE_ADDR="203.0.113.7")

    for _ in range(100):
        throttling.count_failed_credentials(request)

    assert throttling.failed_credentials_wait(request) is None
