"""Versions of public views, kept where a poll can read them without the database, and
announced to the live process.

A *scope* names something the public follows: ``table:<id>`` (a table's live view) or
``standings:<scope key>`` (a leaderboard). Its *version* is an opaque string that changes
whenever what the public sees there may have changed; a client shows one version and asks
"anything newer than this?".

- `publish(scope, version)`, called after commit: stores the version in the cache (a poll
  compares against it with no query) and, when Redis is configured (``REDIS_URL``), announces
  it on the channel ``<prefix>:live:<scope>`` for the async live process.
- `current(scope, compute)`: the stored version, else ``compute()`` (from the database), stored
  for the next reader.

Stored versions expire after `VERSION_SECONDS`: two writes committed in separate processes
can announce out of order, and a version that lost that race is then replaced by the
database's at the next read after it expires, not kept forever.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

VERSION_SECONDS = 30


def version_key(scope: str) -> str:
    return f"live:version:{scope}"


def channel(scope: str) -> str:
    return f"{channel_prefix()}{scope}"


def channel_prefix() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'kakumei')}:live:"


@functools.cache
def _redis(url: str) -> redis.Redis:
    # One connection pool per process and URL (a pool, not cached data).
    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)


def publish(scope: str, version: str) -> None:
    """Make `version` the scope's current version and announce it (call after commit).

    Never raises: the write it follows is committed, and with Redis away viewers still see it
    through the database (`current` falls back to it) at their next poll or reconnect."""
    try:
        cache.set(version_key(scope), version, VERSION_SECONDS)
        if settings.REDIS_URL:
            _redis(settings.REDIS_URL).publish(channel(scope), version)
    except redis.RedisError:
        log.warning("could not announce %s v%s", scope, version, exc_info=True)


def current(scope: str, compute: Callable[[], str]) -> str:
    """The scope's current version: from the cache, else computed and stored."""
    try:
        version = cache.get(version_key(scope))
    except redis.RedisError:
        return compute()
    if version is None:
        version = compute()
        with contextlib.suppress(redis.RedisError):  # the next reader computes it again
            cache.set(version_key(scope), version, VERSION_SECONDS)
    return str(version)
