"""A version published while Redis is down cannot be announced to the live process; it is held
back and announced (and stored) as soon as the cache finds Redis back, so a stream's viewers
learn of what changed during the outage — a game that ended then — without waiting for the
table's next move."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.core.cache import cache

from config import broadcast
from tests.conftest import RedisServer


def next_message(listener: Any) -> dict[str, Any] | None:
    for _ in range(20):  # skip the subscription's confirmation
        message = listener.get_message(timeout=0.5)
        if message is not None and message["type"] == "pmessage":
            return dict(message)
    return None


def test_a_version_published_while_redis_is_down_is_announced_once_it_is_back(
    redis_cache: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("config.cache.RETRY_SECONDS", 0.0)  # Redis is tried again at once
    redis_cache.stop()
    cache.get("anything")  # a request finds Redis away
    broadcast.publish("table:41", "7.12")  # the move that ended the game, committed
    listener = None
    try:
        redis_cache.start()  # empty, as a restarted Redis without persistence is
        listener = redis.Redis.from_url(redis_cache.url).pubsub()
        listener.psubscribe(f"{broadcast.channel_prefix()}*")  # as the live process does

        cache.get("anything")  # the next request finds Redis back
        announced = next_message(listener)
    finally:
        if listener is not None:
            listener.close()

    assert announced is not None
    assert announced["channel"].decode() == broadcast.channel("table:41")
    assert announced["data"].decode() == "7.12"
    assert cache.get(broadcast.version_key("table:41")) == "7.12"
