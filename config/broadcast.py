"""Versions of public views, kept where a poll can read them without the database, and
announced to the live process.

A *scope* names something the public follows: ``table:<id>`` (a table's live view) or
``standings:<scope key>`` (a leaderboard). Its *version* is an opaque string that changes
whenever what the public sees there may have changed; a client shows one version and asks
"anything newer than this?".

- `publish(scope, version, note)`, called after commit: stores the version in the cache (a poll
  compares against it with no query) and, when Redis is configured (``REDIS_URL``), announces
  it on the channel ``<prefix>:live:<scope>`` for the async live process. A `note` says what
  the change was where a viewer following the scope must act on it (a table's move withdrawn by
  an undo: ``{"withdrawn": {"game": 7, "seq": 12}}``); it names rows, never game data, and it
  travels with that announcement only: a viewer who connects later is told the version alone.
- `current(scope, compute)`: the stored version, else ``compute()`` (from the database), stored
  for the next reader.

Stored versions expire after `VERSION_SECONDS`: two writes committed in separate processes
can announce out of order, and a version that lost that race is then replaced by the
database's at the next read after it expires, not kept forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.core.cache import cache

from config.cache import recovered

log = logging.getLogger(__name__)

VERSION_SECONDS = 30
HEARTBEAT_SECONDS = 15.0
# How long a viewer of a live process that is not subscribed yet waits for the subscription.
SUBSCRIBE_SECONDS = 2.0


def version_key(scope: str) -> str:
    return f"live:version:{scope}"


def note_key(scope: str, version: str) -> str:
    return f"live:note:{scope}:{version}"


@dataclass(frozen=True, slots=True)
class Announcement:
    """A scope's new version, with the writer's note on what changed (None: nothing to add)."""

    version: str
    note: dict[str, Any] | None = None

    def message(self) -> str:
        """As sent on the Redis channel: the version, then the note as JSON after a space
        (versions have no spaces)."""
        return self.version if self.note is None else f"{self.version} {json.dumps(self.note)}"

    @classmethod
    def read(cls, message: str) -> Announcement:
        version, _, note = message.partition(" ")
        return cls(version, json.loads(note) if note else None)


def channel(scope: str) -> str:
    return f"{channel_prefix()}{scope}"


def channel_prefix() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'kakumei')}:live:"


@functools.cache
def _redis(url: str) -> redis.Redis:
    # One connection pool per process and URL (a pool, not cached data).
    connect, reply = _timeouts()
    return redis.Redis.from_url(url, socket_connect_timeout=connect, socket_timeout=reply)


def _timeouts() -> tuple[float, float]:
    """Bounded waits, connecting and for each reply (settings.REDIS_*_SECONDS): announcing
    never holds up a request. The live process's subscription still waits for messages
    without a bound (redis-py's blocking read ignores the reply timeout)."""
    return settings.REDIS_CONNECT_TIMEOUT_SECONDS, settings.REDIS_TIMEOUT_SECONDS


# Announcements this process could not make while Redis was away (scope → its last version and
# note), made once the cache finds Redis back (`_announce_held_back`): a stream's viewers then
# learn of what changed meanwhile — a game that ended during the outage — without waiting for
# the table's next move. Work waiting to be done, not cached data; one entry per scope.
_held_back: dict[str, tuple[str, dict[str, Any] | None]] = {}
_held_back_lock = threading.Lock()


def publish(scope: str, version: str, note: dict[str, Any] | None = None) -> None:
    """Make `version` the scope's current version and announce it (call after commit), with
    `note` for the viewers following the scope now.

    Never raises: the write it follows is committed, and with Redis away pollers still see it
    through the database (`current` falls back to it) at their next poll; the announcement is
    held back and made once the cache finds Redis back, for the streams' viewers."""
    try:
        if note is not None:
            # Without Redis a stream reads the cache: the note waits there beside the version.
            cache.set(note_key(scope, version), note, VERSION_SECONDS)
        cache.set(version_key(scope), version, VERSION_SECONDS)
        if not settings.REDIS_URL:
            return
        # Not while the cache has found Redis away (it is tried again once a second, not per
        # move): announced once it is back.
        if not getattr(cache, "available", True):
            with _held_back_lock:
                _held_back[scope] = (version, note)
            return
        _redis(settings.REDIS_URL).publish(channel(scope), Announcement(version, note).message())
        if _held_back:  # one that failed while the cache did not notice an outage
            _announce_held_back()
    except redis.RedisError:
        log.warning("could not announce %s v%s", scope, version, exc_info=True)
        with _held_back_lock:
            _held_back[scope] = (version, note)


def _announce_held_back(**kwargs: Any) -> None:
    """Redis is back (`config.cache.recovered`): store and announce the versions held back."""
    with _held_back_lock:
        waiting = list(_held_back.items())
        _held_back.clear()
    for scope, (version, note) in waiting:
        publish(scope, version, note)


recovered.connect(_announce_held_back, dispatch_uid="config.broadcast.announce_held_back")


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


# --- the live process: announcements fanned out to this process's viewers ------------------


class Hub:
    """One Redis subscription per process (per event loop), shared by every viewer it serves:
    a viewer costs a queue in memory, not a connection to Redis or to the database."""

    def __init__(self) -> None:
        self._viewers: dict[str, set[asyncio.Queue[Announcement]]] = {}
        self._listener: asyncio.Task[None] | None = None
        # Set while the subscription is in place: a viewer reads the current version only
        # then, so no announcement (nor its note) falls between that read and its queue.
        self._subscribed = asyncio.Event()

    @contextlib.asynccontextmanager
    async def watch(self, scope: str) -> AsyncIterator[asyncio.Queue[Announcement]]:
        """A queue receiving the scope's announcements as they are made (from now on)."""
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen())
        queue: asyncio.Queue[Announcement] = asyncio.Queue()
        self._viewers.setdefault(scope, set()).add(queue)
        try:
            # Redis away: go on without (the viewer still gets the current version, and the
            # catch-up after subscribing).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_SECONDS)
            yield queue
        finally:
            viewers = self._viewers.get(scope, set())
            viewers.discard(queue)
            if not viewers:
                self._viewers.pop(scope, None)

    async def _listen(self) -> None:
        prefix = channel_prefix()
        while True:
            connect, reply = _timeouts()
            client = aioredis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=connect, socket_timeout=reply
            )
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(f"{prefix}*")
                    self._subscribed.set()
                    await self._catch_up()
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            scope = message["channel"].decode()[len(prefix) :]
                            self._tell(scope, Announcement.read(message["data"].decode()))
            except (redis.RedisError, OSError):
                self._subscribed.clear()
                log.warning("live channel lost; resubscribing", exc_info=True)
                await asyncio.sleep(1)
            finally:
                await client.aclose()

    async def _catch_up(self) -> None:
        """After (re)subscribing: what was announced while this process was not listening."""
        for scope in list(self._viewers):
            with contextlib.suppress(redis.RedisError):
                version = await cache.aget(version_key(scope))
                if version is not None:
                    self._tell(scope, Announcement(str(version)))

    def _tell(self, scope: str, news: Announcement) -> None:
        for queue in self._viewers.get(scope, ()):
            queue.put_nowait(news)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


async def versions(
    scope: str, seen: str | None, seconds: float
) -> AsyncIterator[Announcement | None]:
    """The scope's versions newer than `seen` as they come, for `seconds`, each with its
    writer's note: first the current one if it differs from `seen`, then each change; None
    every `HEARTBEAT_SECONDS` with no change (a stream writes a comment, so a dead viewer is
    noticed and proxies keep it open). A caller passes as `seen` the version its viewer has
    (or has just been told): a note is for the viewers who had the version before it.

    With Redis, announcements come through the process's `Hub`; without it (the embedded
    default), the cache is read every ``LIVE_FEED_POLL_SECONDS`` — never the database."""
    deadline = time.monotonic() + seconds
    if not settings.REDIS_URL:
        interval = float(settings.LIVE_FEED_POLL_SECONDS)
        quiet = 0.0
        while time.monotonic() < deadline:
            version = await _acurrent(scope)
            if version is not None and version != seen:
                seen = version
                quiet = 0.0
                yield Announcement(version, await _anote(scope, version))
            elif quiet >= HEARTBEAT_SECONDS:
                quiet = 0.0
                yield None
            await asyncio.sleep(interval)
            quiet += interval
        return
    hub = _hubs.setdefault(asyncio.get_running_loop(), Hub())
    async with hub.watch(scope) as queue:  # subscribed before reading: nothing falls between
        version = await _acurrent(scope)
        if version is not None and version != seen:
            seen = version
            yield Announcement(version, await _anote(scope, version))
        while (left := deadline - time.monotonic()) > 0:
            try:
                news = await asyncio.wait_for(queue.get(), min(left, HEARTBEAT_SECONDS))
            except TimeoutError:
                yield None
                continue
            if news.version != seen:
                seen = news.version
                yield news


async def _anote(scope: str, version: str) -> dict[str, Any] | None:
    try:
        note = await cache.aget(note_key(scope, version))
    except redis.RedisError:
        return None
    return note if isinstance(note, dict) else None


async def _acurrent(scope: str) -> str | None:
    try:
        version = await cache.aget(version_key(scope))
    except redis.RedisError:
        return None
    return None if version is None else str(version)
