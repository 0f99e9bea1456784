"""Leagues and seasons (htmx): staff create a league and its seasons, rename them, and see each
season's tournaments with a link to the public season standings. A tournament is attached to a
season from its settings page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from tournaments import services
from tournaments.forms import LeagueForm, SeasonForm
from tournaments.models import League, Season, Tournament
from tournaments.permissions import can_create_tournament


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _context(**extra: Any) -> dict[str, Any]:
    leagues = League.objects.prefetch_related(
        Prefetch(
            "seasons",
            Season.objects.prefetch_related(
                Prefetch("tournaments", Tournament.objects.order_by("starts_on", "name"))
            ).order_by("-slug"),
        )
    ).order_by("name")
    return {"leagues": leagues, "league_form": LeagueForm(), "season_forms": {}, **extra}


def _require_staff(request: HttpRequest) -> None:
    if not can_create_tournament(request.user):
        raise PermissionDenied


def _render(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "organiser/leagues.html#leagues-body" if request.htmx else "organiser/leagues.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def leagues(request: HtmxHttpRequest) -> HttpResponse:
    _require_staff(request)
    return _render(request, _context())


@login_required
@require_POST
def create_league(request: HtmxHttpRequest) -> HttpResponse:
    _require_staff(request)
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            league = services.create_league(request.user, **form.cleaned_data)
        except services.DomainError as error:
            form.add_error("slug", in_active_language(error.message_en, error.message_ja))
        else:
            messages.success(request, _("League %(league)s created.") % {"league": league.name})
            if not request.htmx:
                return redirect("organiser:leagues")
            return _render(request, _context())
    return _render(request, _context(league_form=form), status=422)


@login_required
@require_POST
def create_season(request: HtmxHttpRequest, league_id: int) -> HttpResponse:
    _require_staff(request)
    league = get_object_or_404(League, pk=league_id)
    form = SeasonForm(request.POST, prefix=f"league-{league.pk}")
    if form.is_valid():
        try:
            season = services.create_season(league, request.user, **form.cleaned_data)
        except services.DomainError as error:
            form.add_error("slug", in_active_language(error.message_en, error.message_ja))
        else:
            messages.success(
                request,
                _("Season %(season)s added to %(league)s.")
                % {"season": season.name, "league": league.name},
            )
            if not request.htmx:
                return redirect("organiser:leagues")
            return _render(request, _context())
    return _render(request, _context(season_forms={league.pk: form}), status=422)


@login_required
@require_POST
def edit_league(request: HtmxHttpRequest, league_id: int) -> HttpResponse:
    _require_staff(request)
    league = get_object_or_404(League, pk=league_id)
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            services.update_league(league, request.user, **form.cleaned_data)
        except services.DomainError as error:
            messages.error(request, in_active_language(error.message_en, error.message_ja))
        else:
            messages.success(request, _("League saved."))
    else:
        messages.error(request, _("Give a name and an address (slug)."))
    if not request.htmx:
        return redirect("organiser:leagues")
    return _render(request, _context())


@login_required
@require_POST
def edit_season(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    _require_staff(request)
    season = get_object_or_404(Season, pk=season_id)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            services.update_season(season, request.user, **form.cleaned_data)
        except services.DomainError as error:
            messages.error(request, in_active_language(error.message_en, error.message_ja))
        else:
            messages.success(request, _("Season saved."))
    else:
        messages.error(request, _("Give a name and an address (slug)."))
    if not request.htmx:
        return redirect("organiser:leagues")
    return _render(request, _context())
