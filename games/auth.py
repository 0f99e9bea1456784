"""Device tokens: one per referee device, shown once, stored as SHA-256, revocable.

Devices send `Authorization: Token <key>` (or `Bearer <key>`). What a token may do is what its
user may do (the per-table checks in `games.services` apply unchanged), narrowed by the token's
scope: one tournament, and for a table's scorer device one table number of it. Every API view
that writes checks the scope with `require_scope`.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import secrets
from collections.abc import Iterable
from typing import Any

import redis
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from config import throttling
from games.models import DeviceToken, Game, hash_token
from tournaments.models import Table, Tournament

log = logging.getLogger(__name__)

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


# --- the lookup cache ----------------------------------------------------------------------
#
# A device streaming moves authenticates every request: its token (with its user) is kept in
# the cache under the key's hash. Whatever revokes a token or deactivates its user removes the
# entry after commit (`forget_device_tokens`, the receivers below), so with the shared cache
# (Redis, `REDIS_URL`) a revocation holds at once in every process. A per-process cache can
# only be told in its own process, so there an entry lasts a second. Entries expire anyway
# after a minute: a removal lost while Redis was away cannot keep a token alive for long.


def _token_cache_key(key_hash: str) -> str:
    return f"device-token:{key_hash}"


def token_cache_seconds() -> int:
    return 60 if settings.REDIS_URL else 1


def _cached_token(key_hash: str) -> DeviceToken | None:
    try:
        token = cache.get(_token_cache_key(key_hash))
    except redis.RedisError:
        return None  # the database answers
    return token if isinstance(token, DeviceToken) else None


def _cache_token(token: DeviceToken) -> None:
    with contextlib.suppress(redis.RedisError):
        cache.set(_token_cache_key(token.key_hash), token, token_cache_seconds())


def forget_device_tokens(key_hashes: Iterable[str]) -> None:
    """Drop these tokens' cached lookups (a revocation, a user deactivated): their next request
    is checked against the database. Now, and again once the transaction commits: a request
    read between the two would have cached the row as it was before the change."""
    keys = [_token_cache_key(h) for h in key_hashes]
    if not keys:
        return

    def forget() -> None:
        try:
            cache.delete_many(keys)
        except redis.RedisError:
            log.error("could not forget cached device tokens; they expire within a minute")

    forget()
    transaction.on_commit(forget)


def _forget_token(sender: type[DeviceToken], instance: DeviceToken, **kwargs: Any) -> None:
    forget_device_tokens([instance.key_hash])


def _forget_users_tokens(sender: type[User], instance: User, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "is_active" not in update_fields:
        return  # a sign-in's last_login, a password: not what a token's lookup holds
    tokens = DeviceToken.objects.filter(user=instance)
    forget_device_tokens(list(tokens.values_list("key_hash", flat=True)))


def connect_token_cache() -> None:
    """Connected in `GamesConfig.ready`."""
    post_save.connect(_forget_token, sender=DeviceToken, dispatch_uid="games.token_saved")
    post_delete.connect(_forget_token, sender=DeviceToken, dispatch_uid="games.token_deleted")
    post_save.connect(_forget_users_tokens, sender=User, dispatch_uid="games.user_saved")


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
    """`Authorization: Token <key>`. A wrong token counts against the client's address; past the
    `failed-credentials` rate the address gets 429 before its token is looked at
    (config/throttling.py)."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, DeviceToken] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        throttling.refuse_if_failing(request)
        try:
            return self._authenticate(parts)
        except exceptions.AuthenticationFailed:
            throttling.count_failed_credentials(request)
            raise

    def _authenticate(self, parts: list[bytes]) -> tuple[AbstractBaseUser, DeviceToken]:
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header.")
        try:
            raw = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        key_hash = hash_token(raw)
        token = _cached_token(key_hash)
        if token is None:
            token = (
                DeviceToken.objects.select_related("user")
                .filter(key_hash=key_hash, revoked_at__isnull=True)
                .first()
            )
            if token is None or not token.user.is_active:
                raise exceptions.AuthenticationFailed("Invalid or revoked token.")
            _cache_token(token)
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
            DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
            _cache_token(token)
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
