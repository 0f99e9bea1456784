"""Device tokens issued from the pages and the API (issue #12): a referee's phone or a table's
scorer device, scoped to one tournament (and one table number), shown once, revocable.

- An organiser or the head referee issues a token for a referee of the tournament (the token
  is that referee's: it may do what they may do, in this tournament only) or for a table
  number (a scorer device left at the table: the token is the issuer's, narrowed by its scope
  to the table of that number in each round — `games.auth.require_scope`).
- A referee issues and revokes tokens for their own devices (scoped to a tournament they
  officiate).
- Revoking: the token's user, or an organiser or head referee of the token's tournament.

What the QR code shown with a new token encodes: the API's base URL with the token in the
fragment, `https://host/api/#token=kk_…` — a scorer app learns both, and a fragment never
reaches a server's logs.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.auth import issue_device_token
from games.models import DeviceToken
from tournaments.models import AuditEntry, Official, Tournament
from tournaments.permissions import AnyUser, has_role, is_head_referee
from tournaments.services import DomainError, record_audit

NAME_MAX = 80


def device_qr_text(api_base_url: str, raw: str) -> str:
    """What a new token's QR code says: the API base URL, the token in the fragment."""
    return f"{api_base_url}#token={raw}"


def _clean_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > NAME_MAX:
        raise DomainError(
            f"Name the device (1 to {NAME_MAX} characters), e.g. “Table 3 tablet”.",
            f"端末名を{NAME_MAX}文字以内で入力してください(例:「3卓タブレット」)。",
            code="bad_device_name",
        )
    return name


def tournament_devices(tournament: Tournament) -> QuerySet[DeviceToken]:
    """Every token scoped to `tournament`, newest first, for its device page."""
    return (
        DeviceToken.objects.filter(tournament=tournament)
        .select_related("user", "issued_by")
        .order_by("revoked_at", "-created_at")
    )


def own_devices(user: AnyUser) -> QuerySet[DeviceToken]:
    """The tokens of `user`'s own devices (not the table devices they issued)."""
    if not user.is_authenticated:
        return DeviceToken.objects.none()
    return (
        DeviceToken.objects.filter(user_id=user.pk, table_number__isnull=True)
        .select_related("tournament")
        .order_by("revoked_at", "-created_at")
    )


def require_device_manager(actor: AnyUser, tournament: Tournament) -> None:
    if not is_head_referee(actor, tournament):
        raise PermissionDenied("Only an organiser or the head referee manages devices.")


@transaction.atomic
def issue_device(
    tournament: Tournament,
    actor: AnyUser,
    *,
    name: str,
    referee: User | None = None,
    table_number: int | None = None,
) -> tuple[DeviceToken, str]:
    """A device token for a referee of `tournament` or for one of its table numbers (exactly
    one of the two), issued by an organiser or the head referee. Audited; the raw key is
    returned once."""
    require_device_manager(actor, tournament)
    assert isinstance(actor, User)
    name = _clean_name(name)
    if (referee is None) == (table_number is None):
        raise DomainError(
            "Issue the token either for a referee or for a table number.",
            "審判か卓番号のどちらか一方を選んでください。",
            code="device_for_whom",
        )
    if referee is not None:
        if not tournament.officials.filter(user=referee).exists():
            raise DomainError(
                f"{referee.get_username()} is not an official of {tournament}.",
                f"{referee.get_username()} はこの大会の役員ではありません。",
                code="not_official",
            )
        owner = referee
    else:
        if table_number is None or not 1 <= table_number <= 999:
            raise DomainError(
                "Give a table number from 1 to 999.",
                "卓番号は1から999で入力してください。",
                code="bad_table_number",
            )
        owner = actor
    token, raw = issue_device_token(
        owner, name, tournament=tournament, table_number=table_number, issued_by=actor
    )
    _audit(tournament, actor, AuditEntry.Action.DEVICE_ISSUED, token)
    return token, raw


@transaction.atomic
def issue_own_device(
    tournament: Tournament, actor: AnyUser, *, name: str
) -> tuple[DeviceToken, str]:
    """A token for one of the actor's own devices, scoped to a tournament they officiate."""
    if not isinstance(actor, User) or not (
        has_role(actor, tournament, *Official.Role.values) or is_head_referee(actor, tournament)
    ):
        raise PermissionDenied("Only an official of the tournament.")
    token, raw = issue_device_token(
        actor, _clean_name(name), tournament=tournament, issued_by=actor
    )
    _audit(tournament, actor, AuditEntry.Action.DEVICE_ISSUED, token)
    return token, raw


def can_revoke_device(actor: AnyUser, token: DeviceToken) -> bool:
    if not actor.is_authenticated:
        return False
    if token.user_id == actor.pk and token.table_number is None:
        return True
    return token.tournament is not None and is_head_referee(actor, token.tournament)


@transaction.atomic
def revoke_device(token: DeviceToken, actor: AnyUser) -> DeviceToken:
    """Stop a token from working (its row stays, so the list shows when and who issued it)."""
    if not can_revoke_device(actor, token):
        raise PermissionDenied("Only the device's owner, an organiser or the head referee.")
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise DomainError(
            "This token is already revoked.", "この端末はすでに無効です。", code="already_revoked"
        )
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    if token.tournament is not None:
        _audit(token.tournament, actor, AuditEntry.Action.DEVICE_REVOKED, token)
    return token


def _audit(tournament: Tournament, actor: AnyUser, action: str, token: DeviceToken) -> None:
    record_audit(
        tournament,
        actor,
        action,
        data={
            "device": token.name,
            "prefix": token.prefix,
            "user": token.user.get_username(),
            "table_number": token.table_number,
        },
    )


def visible_devices_filter(actor: AnyUser) -> Q:
    """Tokens `actor` may list through the API: their own, and those of the tournaments where
    they manage devices."""
    if not actor.is_authenticated:
        return Q(pk__in=[])
    managed = Official.objects.filter(
        user_id=actor.pk, role__in=[Official.Role.ORGANISER, Official.Role.HEAD_REFEREE]
    ).values("tournament")
    if getattr(actor, "is_superuser", False):
        return Q()
    return Q(user_id=actor.pk) | Q(tournament__in=managed)
