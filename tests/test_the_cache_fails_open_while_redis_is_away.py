"""With Redis unreachable the cache answers from this process's memory at once: no operation
raises, none waits longer than the bounded connect (100 ms) and reply (200 ms) timeouts, the
outage is logged once and counted where /healthz/ready shows it. When Redis is back, what this
process wrote meanwhile is dropped there, so Redis never serves what has since changed."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import cache
from django.test import Client

from config.cache import FailOpenRedisCache
from tests.conftest import RedisServer


@pytest.fixture(autouse=True)
def no_earlier_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("config.cache._outages", {})


def a_cache(url: str) -> FailOpenRedisCache:
    options = {"socket_connect_timeout": 0.1, "socket_timeout": 0.2}
    return FailOpenRedisCache(url, {"KEY_PREFIX": "t", "OPTIONS": options})


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """An address that takes connections and never answers (a hung Redis)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"


def test_with_redis_stopped_every_operation_answers_from_memory(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    shared = a_cache(redis_server.url)
    shared.set("before", 1)
    assert shared.get("before") == 1 and shared.status()["state"] == "ok"

    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        started = time.monotonic()
        shared.set("throttle_user_1", [1.0, 2.0], 60)
        assert shared.get("throttle_user_1") == [1.0, 2.0]
        assert shared.add("lock", "x") is True and shared.add("lock", "y") is False
        assert shared.add("count", 0) and shared.incr("count", 2) == 2
        assert shared.get_many(["throttle_user_1", "nothing"]) == {"throttle_user_1": [1.0, 2.0]}
        shared.delete("lock")
        assert shared.get("lock", "gone") == "gone"
        took = time.monotonic() - started

    assert took < 0.3  # one refused connection, then memory: nothing waits on Redis
    status = shared.status()
    assert status["state"] != "ok" and status["outages"] == 1
    assert status["local_operations"] >= 8
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1 and "unreachable" in warnings[0].getMessage()


def test_a_redis_that_does_not_answer_costs_one_reply_timeout(silent_redis: str) -> None:
    shared = a_cache(silent_redis)

    started = time.monotonic()
    assert shared.get("anything", "default") == "default"
    first = time.monotonic() - started
    started = time.monotonic()
    for n in range(50):
        shared.set(f"key-{n}", n)
    rest = time.monotonic() - started

    assert 0.15 < first < 0.5  # socket_timeout 0.2 s, and no retry
    assert rest < 0.1  # Redis is left alone for a second after a failure
    assert shared.status()["outages"] == 1


def test_the_threads_of_a_process_share_one_outage(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    # Django gives each thread a cache object of its own; the outage is the process's.
    one, other = a_cache(redis_server.url), a_cache(redis_server.url)
    other.set("throttle_user_1", [1.0], 60)
    redis_server.stop()

    with caplog.at_level(logging.WARNING, logger="config.cache"):
        one.set("throttle_user_2", [2.0], 60)  # this thread finds Redis away
        started = time.monotonic()
        seen = other.get("throttle_user_2")  # the other answers from the same memory at once
        took = time.monotonic() - started

    assert seen == [2.0] and took < 0.05
    assert other.status() == one.status() and one.status()["outages"] == 1
    assert len([r for r in caplog.records if r.name == "config.cache"]) == 1


def test_keys_written_during_an_outage_are_dropped_from_redis_when_it_is_back(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("config.cache.RETRY_SECONDS", 0.0)
    shared = a_cache(redis_server.url)
    shared.set("session:abc", {"user": 7}, 600)
    shared.set("version:table:1", "v1", 600)
    shared.set("untouched", "kept", 600)
    admin = redis.Redis.from_url(redis_server.url, socket_timeout=5)

    # For 1.5 s Redis keeps its data but answers no client: an outage that loses nothing.
    admin.client_pause(1500)
    shared.delete("session:abc")  # signed out meanwhile (the database has no session)
    shared.set("version:table:1", "v2", 600)  # a move published meanwhile
    assert shared.status()["state"] != "ok"
    assert admin.ping()  # answered once the pause is over

    assert shared.get("session:abc") is None  # not the session Redis held before
    assert shared.get("version:table:1") is None  # nor the old version: the database's is read
    assert shared.get("untouched") == "kept"
    assert shared.status()["state"] == "ok" and shared.status()["outages"] == 1
    assert admin.exists(shared.make_key("session:abc")) == 0


@pytest.mark.django_db
def test_the_readiness_page_reports_the_cache_outage(redis_cache: RedisServer) -> None:
    assert Client().get("/healthz/ready").json()["cache"]["state"] == "ok"

    redis_cache.stop()
    answer = Client().get("/healthz/ready")
    cache.get("a version of a table")  # the request path goes on meanwhile

    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "degraded"
    assert body["cache"]["state"].startswith("down") and body["cache"]["outages"] == 1
