"""The shared cache (Redis), failing open: a Redis outage costs a request nothing.

`FailOpenRedisCache` is Django's `RedisCache` whose every operation, when Redis cannot be
reached or does not answer in time, is served by this process's memory instead of raising: the
API throttles go on counting (per process), a session is read from the database
(``cached_db``), a poll compares versions computed from the database. Waits on Redis are
bounded (``socket_connect_timeout`` / ``socket_timeout`` in the cache's OPTIONS:
`REDIS_CONNECT_TIMEOUT_SECONDS`, `REDIS_TIMEOUT_SECONDS`), and after a failure Redis is left
alone for `RETRY_SECONDS` (every operation meanwhile goes to memory at once) before one
operation tries it again.

An outage is logged once when it starts and once when it ends, and counted (`status()`, read
by `/healthz/ready`): outages, the operations memory served, the current one's start.

What memory holds during an outage is this process's alone, so it is kept short: an entry
lasts at most `LOCAL_SECONDS` (a session ended, a token revoked or a version published in
another process is seen here that much later, as with the embedded per-process cache), except
the throttles' counters (``throttle_…`` keys), which keep their window. When Redis answers
again, the keys this process wrote or deleted meanwhile are deleted there first — Redis would
otherwise serve what the database has since changed (a session signed out, a revoked token's
lookup, an old version) — and memory is emptied.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.dispatch import Signal

log = logging.getLogger(__name__)

T = TypeVar("T")

# After a failure, how long Redis is not asked again (memory answers at once meanwhile).
RETRY_SECONDS = 1.0
# The longest an entry lives in this process's memory during an outage (throttles excepted).
LOCAL_SECONDS = 1
# Keys whose entries keep their own timeout in memory: the throttles' request histories
# (rest_framework.throttling's `cache_format`), so a client is still throttled, per process.
KEEP_TIMEOUT_PREFIXES = ("throttle_",)
# Keys remembered for deletion at recovery; past this many, the throttles' keys are forgotten
# (they need no deletion: a request history restarting is harmless).
MAX_REMEMBERED = 100_000

FAILURES: tuple[type[BaseException], ...] = (redis.RedisError, OSError)

# Sent (sender: the cache) once this process finds Redis back after an outage, when the keys
# written meanwhile are gone from it: what was held back may be done now (config.broadcast
# announces the versions it could not).
recovered = Signal()


class _Memory(LocMemCache):
    """This process's memory, taking whatever keys Redis takes (memcached's limits on keys,
    which `LocMemCache` warns about, are not this cache's)."""

    def validate_key(self, key: str) -> None:
        pass


class _Outage:
    """A Redis server's outage as this process sees it, shared by its threads (Django makes a
    cache object per thread): when it began, when to try Redis again, the keys written
    meanwhile, the counts, and the name of the memory that answers."""

    def __init__(self, name: str) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None  # time.monotonic() of the outage's first failure
        self.retry_at = 0.0
        self.written: set[str] = set()  # keys (as given) written or deleted during the outage
        self.outages = 0
        self.local_operations = 0
        self.memory = f"fail-open:{name}:{uuid.uuid4().hex}"


# One per Redis server and key prefix in this process: the state of a connection, not data.
_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(name: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(name, _Outage(name))


class FailOpenRedisCache(RedisCache):
    """`RedisCache` falling back to this process's memory while Redis is unreachable."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._state = _outage_of(f"{server}|{params.get('KEY_PREFIX', '')}")
        self._local = _Memory(self._state.memory, {"TIMEOUT": LOCAL_SECONDS})

    # --- the outage's state ---------------------------------------------------------------

    @property
    def available(self) -> bool:
        """Whether Redis is in use (no outage noticed, or the last one is over)."""
        return self._state.down_since is None

    def status(self) -> dict[str, Any]:
        down = self._state.down_since
        return {
            "state": "ok" if down is None else "down: this process's memory answers",
            "down_seconds": None if down is None else round(time.monotonic() - down, 1),
            "outages": self._state.outages,
            "local_operations": self._state.local_operations,
        }

    def _use_redis(self) -> bool:
        return self._state.down_since is None or time.monotonic() >= self._state.retry_at

    def _failed(self, error: BaseException) -> None:
        with self._state.lock:
            now = time.monotonic()
            self._state.retry_at = now + RETRY_SECONDS
            if self._state.down_since is None:
                self._state.down_since = now
                self._state.outages += 1
                log.warning(
                    "Redis cache unreachable (%s: %s); this process's memory answers until it "
                    "is back",
                    type(error).__name__,
                    error,
                )

    def _recover(self) -> bool:
        """After an outage, before Redis answers anything: delete there the keys written here
        meanwhile (or just reach it), then use it again. Whether Redis is back; one thread
        tries at a time, at most once per `RETRY_SECONDS` (the others use memory meanwhile)."""
        with self._state.lock:
            if self._state.down_since is None:
                return True
            now = time.monotonic()
            if now < self._state.retry_at:
                return False
            self._state.retry_at = now + RETRY_SECONDS
            keys = list(self._state.written)
            try:
                if keys:
                    super().delete_many(keys)
                else:
                    super().has_key("fail-open:probe")  # reaching it is enough
            except FAILURES as error:
                log.debug("Redis cache still unreachable: %s", error)
                return False
            log.warning(
                "Redis cache back after %.1f s; %d operations were served from memory, %d keys "
                "written meanwhile were dropped from Redis",
                time.monotonic() - self._state.down_since,
                self._state.local_operations,
                len(keys),
            )
            self._state.written.clear()
            self._local.clear()
            self._state.down_since = None
        for receiver, answer in recovered.send_robust(sender=self):
            if isinstance(answer, Exception):
                log.error("after the Redis cache came back, %s failed: %r", receiver, answer)
        return True

    def _call(self, remote: Callable[[], T], local: Callable[[], T], *keys: str) -> T:
        if self._use_redis() and (self._state.down_since is None or self._recover()):
            try:
                return remote()
            except FAILURES as error:
                self._failed(error)
        with self._state.lock:
            self._state.local_operations += 1
            if keys:
                if len(self._state.written) + len(keys) > MAX_REMEMBERED:
                    self._state.written = {
                        k for k in self._state.written if not k.startswith(KEEP_TIMEOUT_PREFIXES)
                    }
                self._state.written.update(keys)
        return local()

    def _local_timeout(self, key: str, timeout: float | object | None) -> Any:
        if key.startswith(KEEP_TIMEOUT_PREFIXES):
            return timeout
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        if timeout is None:
            return LOCAL_SECONDS
        return min(float(timeout), LOCAL_SECONDS)  # type: ignore[arg-type]

    # --- Django's cache API -----------------------------------------------------------------

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return self._call(
            lambda: super(FailOpenRedisCache, self).get(key, default, version),
            lambda: self._local.get(key, default, version),
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        keys = list(keys)
        return self._call(
            lambda: super(FailOpenRedisCache, self).get_many(keys, version),
            lambda: self._local.get_many(keys, version),
        )

    def has_key(self, key: str, version: int | None = None) -> bool:
        return self._call(
            lambda: super(FailOpenRedisCache, self).has_key(key, version),
            lambda: self._local.has_key(key, version),
        )

    def add(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._call(
            lambda: super(FailOpenRedisCache, self).add(key, value, timeout, version),
            lambda: self._local.add(key, value, self._local_timeout(key, timeout), version),
            key,
        )

    def set(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._call(
            lambda: super(FailOpenRedisCache, self).set(key, value, timeout, version),
            lambda: self._local.set(key, value, self._local_timeout(key, timeout), version),
            key,
        )

    def set_many(
        self, data: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[str]:
        if not data:
            return []

        def local() -> list[str]:
            for key, value in data.items():
                self._local.set(key, value, self._local_timeout(key, timeout), version)
            return []

        return self._call(
            lambda: super(FailOpenRedisCache, self).set_many(data, timeout, version),
            local,
            *data,
        )

    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call(
            lambda: super(FailOpenRedisCache, self).touch(key, timeout, version),
            lambda: self._local.touch(key, self._local_timeout(key, timeout), version),
            key,
        )

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self._call(
            lambda: super(FailOpenRedisCache, self).incr(key, delta, version),
            lambda: self._local.incr(key, delta, version),
            key,
        )

    def delete(self, key: str, version: int | None = None) -> bool:
        return self._call(
            lambda: super(FailOpenRedisCache, self).delete(key, version),
            lambda: self._local.delete(key, version),
            key,
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        keys = list(keys)
        if not keys:
            return
        self._call(
            lambda: super(FailOpenRedisCache, self).delete_many(keys, version),
            lambda: self._local.delete_many(keys, version),
            *keys,
        )

    def clear(self) -> None:
        self._call(lambda: super(FailOpenRedisCache, self).clear(), self._local.clear)


def probed_status() -> dict[str, Any] | None:
    """The default cache's outage state and counts in this process, after one bounded read
    (so an outage shows even here, where the cache was not used since); None: not Redis."""
    from django.core.cache import caches

    default = caches["default"]
    if not isinstance(default, FailOpenRedisCache):
        return None
    default.has_key("healthz:probe")
    return default.status()


def cache_up(status: dict[str, Any] | None) -> bool:
    return status is None or status["state"] == "ok"
