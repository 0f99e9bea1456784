"""API throttles beyond the per-address and per-user defaults (`REST_FRAMEWORK` in
config/settings.py): a stricter rate for what mints credentials or checks a short PIN, and a
per-address count of failed credentials (tokens, PINs, sign-in links, passwords) that refuses an
address guessing them before its next guess is looked at."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import redis
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle, SimpleRateThrottle

log = logging.getLogger(__name__)


class WriteScopedRateThrottle(ScopedRateThrottle):
    """The view's `throttle_scope` rate, counted on writes only: listing a tournament's device
    tokens is not issuing one."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


def throttles_with_scope() -> list[type[BaseThrottle]]:
    """A view's throttles: the defaults (per address, per user) and its `throttle_scope`'s
    rate on writes."""
    # api_settings imports the classes the settings name (the stubs type them as strings).
    defaults = cast("Sequence[type[BaseThrottle]]", api_settings.DEFAULT_THROTTLE_CLASSES)
    return [*defaults, WriteScopedRateThrottle]


class PinAttemptRateThrottle(ScopedRateThrottle):
    """The view's `throttle_scope` rate, counted on requests that carry a PIN only: a head
    referee confirming a round's results with their own account types none."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if not is_pin_attempt(request):
            return True
        return super().allow_request(request, view)


def is_pin_attempt(request: Request) -> bool:
    data: object = request.data  # any JSON: a list or a number carries no PIN
    return isinstance(data, Mapping) and "pin" in data


def pin_throttles() -> list[type[BaseThrottle]]:
    """A view's throttles where a short PIN may be typed: the defaults (per address, per user)
    and its `throttle_scope`'s rate on the requests that carry one."""
    defaults = cast("Sequence[type[BaseThrottle]]", api_settings.DEFAULT_THROTTLE_CLASSES)
    return [*defaults, PinAttemptRateThrottle]


# --- failed credentials, per address --------------------------------------------------------
#
# A wrong device token, table PIN, sign-in link, PIN card or password counts against the
# client's address (`PROXY_COUNT` proxies read as the throttles read them). Past the
# `failed-credentials` rate (API_THROTTLE_FAILED_CREDENTIALS) the address's next tries of any of
# them are refused with 429 *before* the credential is looked at, until enough of its failures
# are older than the rate's period. Requests that carry no credential, and right credentials
# while the address is under the rate, are never counted. With the cache unreachable the count
# is skipped (logged) and credentials are checked as usual: a Redis outage never stops a table.


class FailedCredentials(SimpleRateThrottle):
    """The `failed-credentials` rate's counter for one address (`failed_credentials_wait`,
    `count_failed_credentials`)."""

    scope = "failed-credentials"

    def get_rate(self) -> str | None:
        # Read when used, not at import: the rate is the settings' (DRF reloads them).
        rates = cast("dict[str, str | None]", api_settings.DEFAULT_THROTTLE_RATES)
        return rates.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _recent(self, request: HttpRequest) -> bool:
        """Load the address's recent failures; False when the rate is off."""
        limit, period = self.parse_rate(self.rate)
        if limit is None or period is None:
            return False
        self.limit = limit
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - period:
            self.history.pop()
        return True

    def wait_for(self, request: HttpRequest) -> int | None:
        try:
            if not self._recent(request) or len(self.history) < self.limit:
                return None
        except redis.RedisError:
            log.warning("failed credentials not counted: the cache is unreachable")
            return None  # fails open: the credential itself is still checked
        return max(1, math.ceil(self.wait() or 1))

    def count(self, request: HttpRequest) -> None:
        try:
            if self._recent(request):
                self.throttle_success()  # records this failure
        except redis.RedisError:
            log.warning("failed credentials not counted: the cache is unreachable")


def failed_credentials_wait(request: HttpRequest) -> int | None:
    """Seconds this request's address must wait before its credentials are checked again (it
    failed too often), or None: check them."""
    return FailedCredentials().wait_for(request)


def count_failed_credentials(request: HttpRequest) -> None:
    """A credential this request carried was wrong: count it against the address."""
    FailedCredentials().count(request)


def refuse_if_failing(request: HttpRequest) -> None:
    """429 (`Throttled`, answered as `throttled` by config.api_errors) when the request's
    address is past the `failed-credentials` rate: its credential is not looked at."""
    wait = failed_credentials_wait(request)
    if wait is not None:
        raise Throttled(wait=wait)
