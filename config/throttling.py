"""API throttles beyond the per-address and per-user defaults (`REST_FRAMEWORK` in
config/settings.py): a stricter rate for what mints credentials or checks a short PIN."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle


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
