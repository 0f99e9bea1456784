"""Device tokens: one per referee device, shown once, stored as SHA-256, revocable.

Devices send `Authorization: Token <key>` (or `Bearer <key>`). What a token may do is what its
user may do: the per-table checks in `games.services` apply unchanged.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.models import DeviceToken, hash_token

KEYWORDS = (b"token", b"bearer")


def issue_device_token(user: User, name: str) -> tuple[DeviceToken, str]:
    """A new token for `user`'s device; the raw key is returned once and never stored."""
    raw = "kk_" + secrets.token_urlsafe(32)
    token = DeviceToken.objects.create(
        user=user, name=name, prefix=raw[:8], key_hash=hash_token(raw)
    )
    return token, raw


def revoke_device_token(token: DeviceToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, DeviceToken] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header.")
        try:
            raw = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        token = (
            DeviceToken.objects.select_related("user")
            .filter(key_hash=hash_token(raw), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class DeviceTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Documents device tokens in the OpenAPI schema."""

    target_class = "games.auth.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A referee device token: `Token <key>` (or `Bearer <key>`).",
        }
