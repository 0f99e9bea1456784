"""Device pages (htmx) over `games.devices`: the tournament's devices page for organisers and
the head referee (/organiser/<slug>/devices/), and a referee's own devices on /referee/.

A new token is shown once, in the answer to the POST that issued it (never stored, never in a
redirect), with a QR code of `https://host/api/#token=…` and `Cache-Control: no-store`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import devices
from games.models import DeviceToken
from games.referee_home import home_context
from tournaments.models import Tournament
from tournaments.permissions import is_head_referee
from tournaments.qr import qr_svg
from tournaments.services import DomainError


def _managed_tournament(request: HttpRequest, slug: str) -> Tournament:
    """Organisers and the head referee; anyone else is told the page does not exist."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_head_referee(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def new_token_context(request: HttpRequest, token: DeviceToken, raw: str) -> dict[str, Any]:
    """The once-only view of a new token: the raw key and its QR code."""
    qr_text = devices.device_qr_text(request.build_absolute_uri(reverse("api-root")), raw)
    return {"token": token, "raw": raw, "qr": qr_svg(qr_text), "qr_text": qr_text}


def _page_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    officials = (
        User.objects.filter(official_roles__tournament=tournament)
        .distinct()
        .order_by("first_name", "username")
    )
    return {
        "tournament": tournament,
        "tokens": devices.tournament_devices(tournament),
        "officials": officials,
        "form": {},
        **extra,
    }


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "organiser/devices.html"
    if getattr(request, "htmx", False):
        template += "#devices"
    response = render(request, template, context, status=status)
    add_never_cache_headers(response)
    return response


@login_required
@require_GET
def tournament_devices(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _managed_tournament(request, slug)
    return _render(request, _page_context(tournament))


@login_required
@require_POST
def issue(request: HttpRequest, slug: str) -> HttpResponse:
    """Issue a token for a referee (`referee`: user id) or a table (`table_number`)."""
    tournament = _managed_tournament(request, slug)
    post = request.POST
    referee: User | None = None
    table_number: int | None = None
    error: DomainError | None = None
    try:
        if post.get("for") == "table":
            try:
                table_number = int(post.get("table_number", ""))
            except ValueError:
                raise DomainError(
                    "Give a table number.", "卓番号を入力してください。", code="bad_table_number"
                ) from None
        else:
            referee = User.objects.filter(
                pk=post.get("referee") or 0, official_roles__tournament=tournament
            ).first()
            if referee is None:
                raise DomainError(
                    "Choose an official of the tournament.",
                    "大会の役員を選んでください。",
                    code="not_official",
                )
        token, raw = devices.issue_device(
            tournament,
            request.user,
            name=post.get("name", ""),
            referee=referee,
            table_number=table_number,
        )
    except DomainError as refused:
        error = refused
    if error is not None:
        return _render(
            request, _page_context(tournament, error=error, form=post.dict()), status=422
        )
    return _render(request, _page_context(tournament, new=new_token_context(request, token, raw)))


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, token_id: int) -> HttpResponse:
    tournament = _managed_tournament(request, slug)
    token = get_object_or_404(DeviceToken.objects.select_related("user"), pk=token_id,
                              tournament=tournament)  # fmt: skip
    error: DomainError | None = None
    try:
        devices.revoke_device(token, request.user)
    except DomainError as refused:
        error = refused
    done = None if error else _("“%(name)s” revoked.") % {"name": token.name}
    context = _page_context(tournament, error=error, done=done)
    return _render(request, context, status=422 if error else 200)


# --- a referee's own devices (on /referee/) ------------------------------------------------


def _render_home(request: HttpRequest, status: int = 200, **extra: Any) -> HttpResponse:
    template = "games/referee_home.html"
    if getattr(request, "htmx", False):
        template += "#own-devices"
    response = render(request, template, home_context(request, **extra), status=status)
    add_never_cache_headers(response)
    return response


@login_required
@require_http_methods(["POST"])
def issue_own(request: HttpRequest) -> HttpResponse:
    """A token for one of my devices, scoped to a tournament I officiate."""
    tournament = Tournament.objects.filter(
        pk=request.POST.get("tournament") or 0, officials__user_id=int(request.user.pk or 0)
    ).first()
    try:
        if tournament is None:
            raise DomainError(
                "Choose a tournament you officiate.",
                "担当する大会を選んでください。",
                code="not_official",
            )
        token, raw = devices.issue_own_device(
            tournament, request.user, name=request.POST.get("name", "")
        )
    except PermissionDenied:
        error = DomainError(
            "Only an official of the tournament issues tokens for its devices.",
            "この大会の役員だけが端末トークンを発行できます。",
            code="permission_denied",
        )
        return _render_home(request, status=422, device_error=error)
    except DomainError as refused:
        return _render_home(request, status=422, device_error=refused)
    return _render_home(request, new=new_token_context(request, token, raw))


@login_required
@require_POST
def revoke_own(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(
        DeviceToken.objects.select_related("user", "tournament"),
        pk=token_id,
        user_id=request.user.pk,
        table_number__isnull=True,
    )
    try:
        devices.revoke_device(token, request.user)
    except DomainError as error:
        return _render_home(request, status=422, device_error=error)
    done = _("“%(name)s” revoked.") % {"name": token.name}
    if not getattr(request, "htmx", False):
        messages.success(request, done)
        return redirect("referee:home")
    return _render_home(request, device_done=done)
