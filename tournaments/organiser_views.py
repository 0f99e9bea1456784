"""Organiser pages (htmx): create a tournament, import and check in entrants, draw, publish and
reveal rounds, print table cards, advance stages. Thin views over `tournaments.services`;
htmx requests get the partial of the same template."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails
from django_stubs_ext import StrOrPromise

from config.language import in_active_language
from games.imports import IMPORTED_FAMILIES
from games.models import Game
from tournaments import services
from tournaments.advancement import AdvancementTie
from tournaments.entrant_views import entries_context
from tournaments.forms import TournamentFromPresetForm
from tournaments.models import Official, Round, Table, Tournament
from tournaments.pairing_words import table_reason_text
from tournaments.permissions import AnyUser, can_create_tournament
from tournaments.qr import qr_svg
from tournaments.ranking import stage_ranking
from tournaments.rulesets import check_ruleset, event_rules
from tournaments.selectors import (
    organised_tournaments,
    round_blockers,
    round_tables,
    stage_participants,
)
from tournaments.switch_words import switch_label


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _tournament_for_organiser(request: HttpRequest, slug: str) -> Tournament:
    """Fetch and authorise in one step: other people's tournaments are simply not found."""
    return get_object_or_404(organised_tournaments(request.user), slug=slug)


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _dashboard_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    stages = list(tournament.stages.prefetch_related("rounds").order_by("order"))
    for stage in stages:
        stage.open_rounds = [  # type: ignore[attr-defined]
            r.number for r in stage.rounds.all() if r.is_open
        ]
    rules = event_rules(
        tournament.ruleset_id, tournament.ruleset_version, tournament.ruleset_overrides
    )
    return {
        # The entrants section (tournaments.entrant_views): entries, walk-in and CSV forms.
        **entries_context(tournament),
        "stages": stages,
        # The event's own rule values, and those it must still set before the first draw.
        "rules_changed": sum(1 for switch in rules.describe_switches() if switch.changed),
        "rules_unset": [switch_label(name) for name in rules.unset_switches()],
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """My tournaments, and a new one from a ruleset preset with the JDF format defaults."""
    form = TournamentFromPresetForm(request.POST or None)
    may_create = can_create_tournament(request.user)
    if request.method == "POST":
        if not may_create:
            raise PermissionDenied
        if form.is_valid():
            try:
                tournament = services.create_tournament_from_preset(
                    actor=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            except IntegrityError:
                form.add_error("slug", _("A tournament already uses this address."))
            else:
                messages.success(
                    request, _("%(name)s created as a draft.") % {"name": tournament.name}
                )
                return redirect("organiser:dashboard", slug=tournament.slug)
    return render(
        request,
        "organiser/home.html",
        {
            "tournaments": organised_tournaments(request.user).order_by("-created_at"),
            "form": form,
            "may_create": may_create,
        },
    )


@login_required
@require_GET
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_for_organiser(request, slug)
    return render(request, "organiser/dashboard.html", _dashboard_context(tournament))


def _error_message(request: HttpRequest, error: services.DomainError) -> None:
    messages.error(request, in_active_language(error.message_en, error.message_ja))


@login_required
@require_POST
def draw(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Draw the stage's next round; `override_reason` draws while an earlier round is still
    open (audited); the `duplicate_deals` box makes it a duplicate round."""
    tournament = _tournament_for_organiser(request, slug)
    stage = get_object_or_404(tournament.stages, pk=stage_id)
    try:
        round_ = services.draw_round(
            stage,
            request.user,
            override_reason=request.POST.get("override_reason", ""),
            duplicate_deals=bool(request.POST.get("duplicate_deals")),
        )
    except services.DomainError as error:
        _error_message(request, error)
        return _redirect(request, reverse("organiser:dashboard", args=[slug]))
    return _redirect(request, reverse("organiser:round", args=[slug, round_.pk]))


def _round_for_organiser(request: HttpRequest, slug: str, round_id: int) -> Round:
    tournament = _tournament_for_organiser(request, slug)
    return get_object_or_404(
        Round.objects.select_related("stage__tournament"), pk=round_id, stage__tournament=tournament
    )


# Irreversible round steps, each confirmed on the round page before it is taken: the question,
# what the confirmation tells the organiser it will do, and what the button says.
ROUND_STEPS: dict[str, dict[str, StrOrPromise]] = {
    "publish": {
        "label": gettext_lazy("Publish round"),
        "question": gettext_lazy("Publish the round?"),
        "what": gettext_lazy(
            "The tables and the SHA-256 commitment of the round's seed become public; the "
            "draw can no longer be redrawn."
        ),
        "yes": gettext_lazy("Yes, publish round"),
    },
    "complete": {
        "label": gettext_lazy("Complete round"),
        "question": gettext_lazy("Complete the round?"),
        "what": gettext_lazy(
            "Every result of the round becomes final: no move, new game or result change is "
            "accepted, except a correction by the head referee or an organiser; the next round "
            "can be drawn."
        ),
        "yes": gettext_lazy("Yes, complete round"),
    },
    "reveal": {
        "label": gettext_lazy("Reveal seed"),
        "question": gettext_lazy("Reveal the seed?"),
        "what": gettext_lazy(
            "The round's secret seed becomes public so anyone can re-derive every deal (the "
            "round is completed first if it is still in play). After this only an organiser may "
            "correct a result, and such a correction is flagged publicly."
        ),
        "yes": gettext_lazy("Yes, reveal seed"),
    },
    "close": {
        "label": gettext_lazy("Close round"),
        "question": gettext_lazy("Close the round?"),
        "what": gettext_lazy(
            "No result of the round may change any more, not even by an organiser's correction."
        ),
        "yes": gettext_lazy("Yes, close round"),
    },
}


# Each step's service and what the organiser is told once it is done.
STEP_SERVICES: dict[str, tuple[Callable[[Round, AnyUser], Round], StrOrPromise]] = {
    "publish": (
        services.publish_round,
        gettext_lazy("Round published with its seed commitment."),
    ),
    "complete": (
        services.complete_round,
        gettext_lazy("Round complete: its results are final."),
    ),
    "reveal": (
        services.reveal_round_seed,
        gettext_lazy("Seed revealed: every deal of the round can now be verified."),
    ),
    "close": (
        services.close_round,
        gettext_lazy("Round closed: its results can no longer change."),
    ),
}
assert set(STEP_SERVICES) == set(ROUND_STEPS)


def table_explanation(table: Table) -> str:
    """Why the draw formed the table. A random draw's reason is the same for every table, so it
    is said in the page's language; so is a team pairing's, from its stored facts; a score
    draw's explanation (names, bands, the repeat pairings it avoided) is shown as the draw
    wrote it."""
    if table.round.draw_method == "random":
        return _("Table %(number)s: random draw by lot.") % {"number": table.number}
    return table_reason_text(table.reason, table.explanation)


def _round_context(round_: Round, **extra: Any) -> dict[str, Any]:
    tournament = round_.stage.tournament
    referees = User.objects.filter(
        official_roles__tournament=tournament,
        official_roles__role__in=[Official.Role.REFEREE, Official.Role.HEAD_REFEREE],
    ).distinct()
    games_by_table: dict[int, list[Game]] = {}
    for game in Game.objects.filter(table__round=round_).order_by(
        "set_number", "game_number", "attempt"
    ):
        games_by_table.setdefault(game.table_id, []).append(game)
    tables = list(round_tables(round_))
    for table in tables:
        table.round_games = games_by_table.get(table.pk, [])  # type: ignore[attr-defined]
        table.explanation_text = table_explanation(table)  # type: ignore[attr-defined]
    return {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "referees": referees,
        "blockers": round_blockers(round_) if round_.is_open else [],
        # Games played elsewhere enter an open round's tables from their records.
        "imports_records": round_.is_open
        and check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family
        in IMPORTED_FAMILIES,
        "audit": round_.audit.select_related("actor")[:50],
        **extra,
    }


@login_required
@require_GET
def round_detail(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """The draw with each table's explanation and games; the games that keep the round from
    completing; publish, complete, reveal and close (each confirmed first), print, referees."""
    round_ = _round_for_organiser(request, slug, round_id)
    step = request.GET.get("confirm", "")
    return render(
        request,
        "organiser/round.html",
        _round_context(
            round_, confirm=step if step in ROUND_STEPS else "", step=ROUND_STEPS.get(step)
        ),
    )


@login_required
@require_POST
def round_step(request: HtmxHttpRequest, slug: str, round_id: int, step: str) -> HttpResponse:
    """Take one of the round's steps (publish, complete, reveal, close), confirmed on the
    round page first; a refusal comes back as a message, the blocking games listed below."""
    round_ = _round_for_organiser(request, slug, round_id)
    service, done = STEP_SERVICES[step]
    try:
        service(round_, request.user)
        messages.success(request, done)
    except services.DomainError as error:
        _error_message(request, error)
    return _redirect(request, reverse("organiser:round", args=[slug, round_id]))


@login_required
@require_POST
def assign_referee(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    tournament = _tournament_for_organiser(request, slug)
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_id)
    if table.round.stage.tournament_id != tournament.pk:
        raise PermissionDenied
    referee_id = request.POST.get("referee") or None
    referee = get_object_or_404(User, pk=referee_id) if referee_id else None
    try:
        services.assign_referee(table, request.user, referee)
    except services.DomainError as error:
        _error_message(request, error)
    return _redirect(request, reverse("organiser:round", args=[slug, table.round_id]))


@login_required
@require_POST
def assign_referees(request: HtmxHttpRequest, slug: str, round_id: int) -> HttpResponse:
    """One referee (or nobody: `referee` empty) for every ticked table of the round."""
    round_ = _round_for_organiser(request, slug, round_id)
    referee_id = request.POST.get("referee") or None
    referee = get_object_or_404(User, pk=referee_id) if referee_id else None
    ticked = [v for v in request.POST.getlist("tables") if v.isdigit()]
    tables = list(round_.tables.filter(pk__in=ticked).order_by("number"))
    try:
        services.assign_referees(round_, request.user, referee, tables)
    except services.DomainError as error:
        _error_message(request, error)
    else:
        numbers = ", ".join(str(t.number) for t in tables)
        if referee is None:
            done = ngettext(
                "Referee of table %(numbers)s: nobody.",
                "Referee of tables %(numbers)s: nobody.",
                len(tables),
            ) % {"numbers": numbers}
        else:
            done = ngettext(
                "Referee of table %(numbers)s: %(name)s.",
                "Referee of tables %(numbers)s: %(name)s.",
                len(tables),
            ) % {"numbers": numbers, "name": referee.get_full_name() or referee.get_username()}
        messages.success(request, done)
    # No "#referees" here: htmx would only scroll an unchanged page to the fragment.
    return _redirect(request, reverse("organiser:round", args=[slug, round_id]))


@login_required
@require_GET
def table_cards(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """One printable card per table, with a QR code to the table's referee page."""
    round_ = _round_for_organiser(request, slug, round_id)
    cards = [
        {
            "table": table,
            "referee_url": (url := request.build_absolute_uri(table.get_referee_url())),
            "qr": qr_svg(url),
        }
        for table in round_tables(round_)
    ]
    return render(
        request,
        "organiser/cards.html",
        {"tournament": round_.stage.tournament, "round": round_, "cards": cards},
    )


@login_required
@require_http_methods(["GET", "POST"])
def advance(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Show who would advance (ties flagged) and advance the stage's qualifiers. A tie at the
    cut line needs an order: the result of a playoff (順位決定戦, "use the playoff result") or
    the entrant numbers typed in (a draw by lot)."""
    tournament = _tournament_for_organiser(request, slug)
    stage = get_object_or_404(tournament.stages, pk=stage_id)
    participants = stage_participants(stage)
    error = ""
    if request.method == "POST":
        by_number = {e.number: e.pk for e in participants}
        raw = request.POST.get("tie_break", "")
        try:
            typed = [by_number[int(n)] for n in raw.replace(",", " ").split()]
        except (ValueError, KeyError):
            error = _("Tie-break order: entrant numbers of this stage, separated by spaces.")
        else:
            tie_break: list[int | tuple[int, ...]] = [*typed]
            if request.POST.get("use_playoff"):
                tie_break += services.playoff_order(stage)
            try:
                services.advance_stage(
                    stage, request.user, stage_ranking(stage).keys, tie_break=tie_break
                )
            except AdvancementTie as tie:
                numbers = sorted(e.number for e in participants if e.pk in tie.tied)
                error = ngettext(
                    "%(count)s entrants tie for %(places)s place: %(numbers)s. Enter their "
                    "order (playoff or lot) as the tie-break.",
                    "%(count)s entrants tie for %(places)s places: %(numbers)s. Enter their "
                    "order (playoff or lot) as the tie-break.",
                    tie.places_left,
                ) % {
                    "count": len(numbers),
                    "places": tie.places_left,
                    "numbers": ", ".join(f"#{n}" for n in numbers),
                }
            except services.DomainError as domain_error:
                error = in_active_language(domain_error.message_en, domain_error.message_ja)
            else:
                messages.success(
                    request,
                    _("%(stage)s: qualifiers moved to the next stage.") % {"stage": stage.name},
                )
                return _redirect(request, reverse("organiser:dashboard", args=[slug]))
    preview = services.preview_advancement(stage, request.user)
    return render(
        request,
        "organiser/advance.html",
        {
            "tournament": tournament,
            "stage": stage,
            "preview": preview,
            "rule": stage.advancement_label,
            "ties": preview.ties,
            "error": error,
            "basis": preview.basis,
        },
        status=422 if error else 200,
    )
