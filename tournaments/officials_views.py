"""The officials page, /organiser/<slug>/officials/ (issue #12): who referees, with their
sign-in names and live sign-in codes; add a person or an existing user, revoke a role, issue a
one-time sign-in link (shown once, with a QR code) or print PIN cards.

Organisers of the tournament change it; the head referee may look. Secrets appear only in the
answer to the POST that made them (`Cache-Control: no-store`); only their hashes are kept."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import services
from tournaments.models import Official, SignInCode, Tournament
from tournaments.permissions import is_head_referee, is_organiser
from tournaments.qr import qr_svg

HOURS_CHOICES = [
    (24, gettext_lazy("1 day")),
    (72, gettext_lazy("3 days")),
    (168, gettext_lazy("7 days")),
    (4, gettext_lazy("4 hours")),
]


def _tournament_for_officials(request: HttpRequest, slug: str) -> Tournament:
    """Organisers and the head referee see the page; to anyone else it does not exist."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_head_referee(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def live_codes(tournament: Tournament) -> dict[int, list[SignInCode]]:
    """Each user's sign-in codes for `tournament` that still work."""
    codes: dict[int, list[SignInCode]] = defaultdict(list)
    for code in SignInCode.objects.filter(
        tournament=tournament,
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
        failed_attempts__lt=services.PIN_MAX_FAILURES,
    ).order_by("expires_at"):
        codes[code.user_id].append(code)
    return codes


def _context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    officials = list(
        tournament.officials.select_related("user").order_by("role", "user__first_name", "user_id")
    )
    codes = live_codes(tournament)
    for official in officials:
        official.live_codes = codes.get(official.user_id, [])  # type: ignore[attr-defined]
    return {
        "tournament": tournament,
        "officials": officials,
        "roles": Official.Role.choices,
        "hours_choices": HOURS_CHOICES,
        "may_edit": is_organiser(request.user, tournament),
        "form": {},
        **extra,
    }


def _render(
    request: HttpRequest, tournament: Tournament, status: int = 200, **extra: Any
) -> HttpResponse:
    template = "organiser/officials.html"
    if getattr(request, "htmx", False):
        template += "#officials"
    response = render(request, template, _context(request, tournament, **extra), status=status)
    add_never_cache_headers(response)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def officials(request: HttpRequest, slug: str) -> HttpResponse:
    """The list, and (POST) adding a new person or an existing user by sign-in name."""
    tournament = _tournament_for_officials(request, slug)
    if request.method == "GET":
        return _render(request, tournament)
    post = request.POST
    try:
        if post.get("existing", "").strip():
            official = services.add_official_user(
                tournament, request.user, username=post["existing"], role=post.get("role", "")
            )
        else:
            official = services.add_official_person(
                tournament,
                request.user,
                display_name=post.get("display_name", ""),
                email=post.get("email", "").strip(),
                role=post.get("role", ""),
            )
    except services.DomainError as error:
        return _render(request, tournament, status=422, error=error, form=post.dict())
    name = official.user.get_full_name() or official.user.get_username()
    done = _("%(name)s added as %(role)s; signs in as “%(username)s”.") % {
        "name": name,
        "role": official.get_role_display(),
        "username": official.user.get_username(),
    }
    return _render(request, tournament, done=done, added=official.pk)


def _official(tournament: Tournament, official_id: int) -> Official:
    return get_object_or_404(tournament.officials.select_related("user"), pk=official_id)


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, official_id: int) -> HttpResponse:
    tournament = _tournament_for_officials(request, slug)
    official = _official(tournament, official_id)
    try:
        services.revoke_official(official, request.user)
    except services.DomainError as error:
        return _render(request, tournament, status=422, error=error)
    name = official.user.get_full_name() or official.user.get_username()
    done = _("%(name)s is no longer %(role)s.") % {
        "name": name,
        "role": official.get_role_display(),
    }
    return _render(request, tournament, done=done)


def _hours(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("hours", services.SIGN_IN_HOURS))
    except ValueError:
        return services.SIGN_IN_HOURS


@login_required
@require_POST
def issue_link(request: HttpRequest, slug: str, official_id: int) -> HttpResponse:
    """A one-time sign-in link, shown once on the page with its QR code."""
    tournament = _tournament_for_officials(request, slug)
    official = _official(tournament, official_id)
    try:
        code, secret = services.issue_sign_in_link(
            tournament, request.user, official.user, hours=_hours(request)
        )
    except services.DomainError as error:
        return _render(request, tournament, status=422, error=error)
    url = request.build_absolute_uri(reverse("sign-in-link", args=[secret]))
    issued = {"official": official, "url": url, "qr": qr_svg(url), "expires_at": code.expires_at}
    return _render(request, tournament, issued=issued)


def pin_sign_in_url(request: HttpRequest, user: User) -> str:
    return request.build_absolute_uri(
        reverse("sign-in-pin") + "?" + urlencode({"user": user.get_username()})
    )


def _cards(request: HttpRequest, tournament: Tournament, users: list[User]) -> HttpResponse:
    hours = _hours(request)
    with transaction.atomic():  # every card or none
        cards = [_card(request, tournament, user, hours) for user in users]
    response = render(
        request, "organiser/pin_cards.html", {"tournament": tournament, "cards": cards}
    )
    add_never_cache_headers(response)
    return response


def _card(request: HttpRequest, tournament: Tournament, user: User, hours: int) -> dict[str, Any]:
    code, pin = services.issue_pin_card(tournament, request.user, user, hours=hours)
    url = pin_sign_in_url(request, user)
    roles = set(tournament.officials.filter(user=user).values_list("role", flat=True))
    return {
        "user": user,
        "pin": f"{pin[:4]} {pin[4:]}",
        "url": url,
        "qr": qr_svg(url),
        "expires_at": code.expires_at,
        "roles": [label for value, label in Official.Role.choices if value in roles],
    }


@login_required
@require_POST
def pin_card(request: HttpRequest, slug: str, official_id: int) -> HttpResponse:
    """A printable PIN card for one official (any older unused PIN of theirs stops working)."""
    tournament = _tournament_for_officials(request, slug)
    official = _official(tournament, official_id)
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only an organiser issues sign-in codes."))
    return _cards(request, tournament, [official.user])


@login_required
@require_POST
def pin_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """PIN cards for every referee and head referee at once, several to an A4 page."""
    tournament = _tournament_for_officials(request, slug)
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only an organiser issues sign-in codes."))
    users = list(
        User.objects.filter(
            official_roles__tournament=tournament,
            official_roles__role__in=services.REFEREE_ROLES,
            is_active=True,
        )
        .distinct()
        .order_by("first_name", "username")
    )
    return _cards(request, tournament, users)
