"""Sign-in lockout: too many wrong passwords or PINs for one sign-in name from one address, and
that name is refused from that address for a while (django-axes, set up in config/settings.py).

Django's login form and admin, and HTTP Basic when `API_BASIC_AUTH` is on
(`BasicAuthenticationWithLockout`), go through `authenticate()`, which axes watches. The PIN
form (tournaments.signin_views) signs in without a password, so it asks `sign_in_allowed`
first and reports each wrong PIN with `count_failed_sign_in`: the same counter, the same limit,
the same page. Sign-in links need no lockout: their secret is 32 random bytes, not something
anyone can guess.

Beside that lockout, every failed sign-in — a wrong password, PIN card or sign-in link, whatever
the name — counts against the client's address (`failed-credentials`, config/throttling.py):
past that rate the address's sign-ins are refused with 429 before they are checked
(`refuse_failing_addresses`), so a script cannot try name after name from one address.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from config import throttling


def client_ip(request: HttpRequest) -> str | None:
    """The visitor's address, read as the API throttles read it (`PROXY_COUNT` proxies in
    front append to X-Forwarded-For; none means the connection's own address)."""
    ident: str | None = BaseThrottle().get_ident(request)  # type: ignore[arg-type]
    return ident


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The sign-in name tried, as the lockout counts it: `Sato` and ` sato` are one name."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username")
    if name is None:
        return None
    return str(name).strip().lower() or None


def cool_off() -> timedelta:
    wait: timedelta = settings.AXES_COOLOFF_TIME
    return wait


def sign_in_allowed(request: HttpRequest, username: str) -> bool:
    """Whether `username` may try to sign in from this request's address now."""
    return bool(AxesProxyHandler.is_allowed(request, {"username": username}))


def count_failed_sign_in(request: HttpRequest, username: str, sender: str) -> None:
    """Count a refused sign-in that did not go through `authenticate()` (a wrong PIN, or any
    try while locked out, which starts the wait again). Past the limit the response becomes
    `locked_out_response` (axes' middleware)."""
    user_login_failed.send(sender=sender, credentials={"username": username}, request=request)


def locked_out_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """What a locked-out sign-in gets (429 with Retry-After): the page saying how long to wait,
    its message alone for an htmx form, or a JSON error under /api/."""
    # Imported here: DRF imports this module while its views module is still loading (an
    # authentication class in its settings), and the error shape imports those views.
    from config.api_errors import error_body
    from config.language import in_active_language

    seconds = math.ceil(cool_off().total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    response: HttpResponse
    if request.path.startswith("/api/"):
        english = (
            f"Too many failed sign-ins for this name from your address: wait {minutes} "
            "minutes and try again."
        )
        japanese = (
            f"このサインイン名で失敗が続いたため、この接続元からのサインインを一時停止して"
            f"います。{minutes}分待ってからもう一度お試しください。"
        )
        response = JsonResponse(
            error_body(
                "locked_out",
                english,
                japanese,
                detail={"retry_after_seconds": seconds},  # as a throttled answer says it
                message=in_active_language(english, japanese),  # as a throttled answer has
            ),
            status=429,
        )
    else:
        template = "registration/locked_out.html"
        if getattr(request, "htmx", False):
            template += "#locked-out"
        response = render(request, template, {"minutes": minutes}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class BasicAuthenticationWithLockout(BasicAuthentication):
    """HTTP Basic (`API_BASIC_AUTH`), whose refusal says so when the name is locked out: 429
    with Retry-After, like the sign-in pages, rather than a bare "wrong password"."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        try:
            if request is not None:
                throttling.refuse_if_failing(request)
            return super().authenticate_credentials(userid, password, request)
        except AuthenticationFailed:
            if request is not None and not sign_in_allowed(request, userid):
                seconds = math.ceil(cool_off().total_seconds())
                raise Throttled(
                    wait=seconds,
                    detail=f"Too many failed sign-ins for this name from your address: wait "
                    f"{max(1, math.ceil(seconds / 60))} minutes and try again.",
                ) from None
            raise


@receiver(user_login_failed, dispatch_uid="config.lockout.count_against_the_address")
def _count_against_the_address(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """Every failed sign-in (a password through `authenticate()`, a PIN card's wrong PIN through
    `count_failed_sign_in`) counts against the client's address."""
    if request is not None:
        throttling.count_failed_credentials(request)


def failing_address_response(request: HttpRequest, seconds: int) -> HttpResponse:
    """What a sign-in from an address past the `failed-credentials` rate gets: 429 with
    Retry-After, the page saying how long to wait (its message alone for an htmx form)."""
    template = "registration/locked_out.html"
    if getattr(request, "htmx", False):
        template += "#locked-out"
    minutes = max(1, math.ceil(seconds / 60))
    context = {"minutes": minutes, "whole_address": True}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def refuse_failing_addresses(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """A sign-in view that answers 429 (`failing_address_response`) without looking at the
    credentials when the request's address is past the `failed-credentials` rate: on a POST, and
    on any request that carries a secret in its address (`secret`, a sign-in link's)."""

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" or "secret" in kwargs:
            wait = throttling.failed_credentials_wait(request)
            if wait is not None:
                return failing_address_response(request, wait)
        return view(request, *args, **kwargs)

    return guarded
