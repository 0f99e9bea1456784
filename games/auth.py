"""Device tokens: one per referee device, shown once, stored as SHA-256, revocable.

Devices send `Authorization: Token <key>` (or `Bearer <key>`). What a token may do is what its
user may do (the per-table checks in `games.services` apply unchanged), narrowed by the token's
scope: one tournament, and for a table's scorer device one table number of it. Every API view
that writes checks the scope with `require_scope`.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.models import DeviceToken, Game, hash_token
from tournaments.models import Table, Tournament

KEYWORDS = (b"token", b"bearer")
# `last_used_at` is written at most this often per token: a device streaming moves would
# otherwise add a write to every request.
LAST_USED_EVERY = datetime.timedelta(minutes=1)


def issue_device_token(
    user: User,
    name: str,
    *,
    tournament: Tournament | None = None,
    table_number: int | None = None,
    issued_by: User | None = None,
) -> tuple[DeviceToken, str]:
    """A new token for `user`'s device, optionally scoped to one tournament (and one table
    number of it); the raw key is returned once and never stored."""
    raw = "kk_" + secrets.token_urlsafe(32)
    token = DeviceToken.objects.create(
        user=user,
        name=name,
        prefix=raw[:8],
        key_hash=hash_token(raw),
        tournament=tournament,
        table_number=table_number,
        issued_by=issued_by,
    )
    return token, raw


def revoke_device_token(token: DeviceToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


def scope_allows(
    token: DeviceToken, *, game_id: int | None = None, table: Table | None = None
) -> bool:
    """Whether `token`'s scope covers the game or table (an unscoped token covers all)."""
    if token.tournament_id is None:
        return True
    tables = Table.objects.filter(round__stage__tournament_id=token.tournament_id)
    if token.table_number is not None:
        tables = tables.filter(number=token.table_number)
    if table is not None:
        return tables.filter(pk=table.pk).exists()
    return game_id is not None and Game.objects.filter(pk=game_id, table__in=tables).exists()


def require_scope(auth: object, *, game_id: int | None = None, table: Table | None = None) -> None:
    """Refuse a device token's request outside its scope; session requests pass (`auth` is
    the request's `auth`: a DeviceToken for token requests)."""
    if isinstance(auth, DeviceToken) and not scope_allows(auth, game_id=game_id, table=table):
        where = f"table {auth.table_number}" if auth.table_number else "one tournament"
        raise PermissionDenied(f"This device's token is limited to {where}.")


def require_management_scope(auth: object, tournament: Tournament) -> None:
    """Refuse a device token acting on the tournament as a whole (its officials, devices,
    penalties outside a game): a table's scorer token never may, another token only inside
    its own tournament."""
    if isinstance(auth, DeviceToken) and (
        auth.table_number is not None
        or (auth.tournament_id is not None and auth.tournament_id != tournament.pk)
    ):
        raise PermissionDenied("This device's token cannot act for the whole tournament.")


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
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
            DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
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
