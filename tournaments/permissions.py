"""Who may do what to which tournament: one place, used by services, views and the API.

- **organiser** (per tournament, `Official`): everything about their tournament; superusers
  count as organisers of every tournament (they can change any row in the admin anyway);
- **head referee** (主審): sees every table of their tournament, decides undos, rules on games
  (corrections, voids, forfeits) and gives penalties until the round's seed is revealed;
- **referee** (審判): sees only the tables they are assigned to;
- **public**: published tournaments and published rounds, never an unrevealed seed.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from tournaments.models import Official, Table, Tournament

# `request.user` under django-stubs' plugin (AUTH_USER_MODEL is the default User).
AnyUser = User | AnonymousUser


def has_role(user: AnyUser, tournament: Tournament, *roles: str) -> bool:
    if not user.is_authenticated:
        return False
    return Official.objects.filter(tournament=tournament, user_id=user.pk, role__in=roles).exists()


def is_organiser(user: AnyUser, tournament: Tournament) -> bool:
    if getattr(user, "is_superuser", False):
        return True
    return has_role(user, tournament, Official.Role.ORGANISER)


def is_head_referee(user: AnyUser, tournament: Tournament) -> bool:
    """The head referee (主審) — or an organiser, who may do everything a head referee may."""
    return is_organiser(user, tournament) or has_role(user, tournament, Official.Role.HEAD_REFEREE)


def require_organiser(actor: AnyUser, tournament: Tournament) -> None:
    """Raise `PermissionDenied` unless `actor` organises `tournament`."""
    if not is_organiser(actor, tournament):
        raise PermissionDenied(
            _("Only an organiser of %(tournament)s may do this.") % {"tournament": tournament}
        )


def can_create_tournament(user: AnyUser) -> bool:
    return user.is_authenticated and (
        getattr(user, "is_staff", False)
        or (hasattr(user, "has_perm") and user.has_perm("tournaments.add_tournament"))
    )


def can_view_table(user: AnyUser, table: Table) -> bool:
    """The table's referee, the tournament's head referee, or an organiser."""
    if not user.is_authenticated:
        return False
    # Checked first and without a query: the assigned referee is every device's write path.
    if table.referee_id is not None and table.referee_id == user.pk:
        return True
    tournament = table.round.stage.tournament
    return is_organiser(user, tournament) or has_role(user, tournament, Official.Role.HEAD_REFEREE)
