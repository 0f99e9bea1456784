"""Organiser pages for the entrants on the tournament day (htmx): walk-ins, inline edits,
withdrawals (棄権) and reinstatement, substitutes (補欠) mid-round, late arrivals, and the CSV
import with its preview. Thin views over `tournaments.services`.

Every form answers an htmx request with the partial of its `hx-target`: the entrants section
(`#entries`) for what changes the list, the entrant's row (`#entry-N`) for an inline edit, a
refusal or invalid input with the same partial and status 422. Without htmx the forms post
and redirect (a refusal re-renders the dashboard with status 422).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from tournaments import services
from tournaments.entrants import entrant_row, entrant_rows, substitutes_available
from tournaments.forms import (
    CsvConfirmForm,
    CsvImportForm,
    EntrantForm,
    PairEntrantsForm,
    ReinstateForm,
    RenameTeamForm,
    SubstituteForm,
    TeamForm,
    WalkInForm,
    WithdrawForm,
)
from tournaments.models import Entry, Team, Tournament
from tournaments.selectors import organised_tournaments, tournament_teams


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


SECTION = "organiser/entrants.html#entries"
# Field ids unique on the page: the walk-in form and a row's inline form are shown together.
WALK_IN_ID = "id_walk_in_%s"


def _row_id(entry: Entry) -> str:
    return f"id_entry{entry.pk}_%s"


ROW = "organiser/entrants.html#entry-row"
TEAM_ROW = "organiser/entrants.html#team-row"
TEAM_ID = "id_team_%s"
PAIR_ID = "id_pair_%s"


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    """Fetch and authorise in one step: other people's tournaments are simply not found."""
    return get_object_or_404(organised_tournaments(request.user), slug=slug)


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(tournament.entries.select_related("player"), pk=entry_id)


def _refusal(error: services.DomainError) -> str:
    """A refusal in the page's language (the services word it in both)."""
    return in_active_language(error.message_en, error.message_ja)


def entries_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    """Everything the entrants section shows (the dashboard includes it)."""
    rows = entrant_rows(tournament)
    day = services.is_tournament_day(tournament)
    teams = _teams_context(tournament) if tournament.plays_in_teams else {}
    by_id = {team.pk: team for team in teams.get("teams", ())}
    for entry in rows:
        if entry.team_id is not None:
            entry.team = by_id[entry.team_id]  # the teams as listed: no query per row
    return {
        "tournament": tournament,
        "entries": rows,
        "checked_in": sum(1 for e in rows if e.status == Entry.Status.CHECKED_IN),
        "late": [e for e in rows if e.day.is_late],  # type: ignore[attr-defined]
        "substituted": [e for e in rows if e.day.stands_in_for],  # type: ignore[attr-defined]
        "import_form": CsvImportForm(),
        "walk_in_form": WalkInForm(initial={"check_in": day}, auto_id=WALK_IN_ID),
        "walk_in_open": False,  # opened by its summary; open again after an error
        **teams,
        **extra,
    }


def _pair_form(tournament: Tournament, data: Any = None) -> PairEntrantsForm:
    choices: list[tuple[int | str, str]] = [
        (e.pk, f"#{e.number} {e.player.display_name}")
        for e in tournament.entries.select_related("player")
        .filter(team__isnull=True)
        .exclude(status=Entry.Status.DROPPED)
        .order_by("number")
    ]
    return PairEntrantsForm(data, choices=choices, auto_id=PAIR_ID)


def _teams_context(tournament: Tournament) -> dict[str, Any]:
    """The teams block of a team event's entrants section."""
    teams = list(tournament_teams(tournament))
    pair_form = _pair_form(tournament)
    return {
        "teams": teams,
        "team_form": TeamForm(
            initial={"check_in": services.is_tournament_day(tournament)}, auto_id=TEAM_ID
        ),
        "team_open": False,
        "pair_form": pair_form,
        "pair_open": False,
        "can_pair": len(pair_form.fields["first"].choices) > 2,  # type: ignore[attr-defined]
    }


def _section(
    request: HtmxHttpRequest, tournament: Tournament, status: int = 200, **extra: Any
) -> HttpResponse:
    """The entrants section for htmx, else the whole dashboard (a refusal's answer)."""
    if request.htmx:
        return render(request, SECTION, entries_context(tournament, **extra), status=status)
    from tournaments.organiser_views import _dashboard_context  # the page around the section

    context = _dashboard_context(tournament)
    context.update(entries_context(tournament, **extra))
    return render(request, "organiser/dashboard.html", context, status=status)


def _done(request: HtmxHttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    if request.htmx:
        return _section(request, tournament, done=message)
    messages.success(request, message)
    return redirect("organiser:dashboard", slug=tournament.slug)


def _row(
    request: HtmxHttpRequest,
    entry: Entry,
    *,
    mode: str = "",
    form: Form | None = None,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    """The entrant's row (plain, or as an inline form) for htmx, else the dashboard with it."""
    extra = {"mode": mode, "mode_entry": entry.pk, "form": form, "row_error": error}
    if request.htmx:
        context = {"tournament": entry.tournament, "entry": entrant_row(entry), **extra}
        return render(request, ROW, context, status=status)
    return _section(request, entry.tournament, status=status, **extra)


# --- walk-ins and edits ---


@login_required
@require_POST
def walk_in(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add one entrant on the day (name, kana, optional e-mail and number)."""
    tournament = _tournament(request, slug)
    form = WalkInForm(request.POST, auto_id=WALK_IN_ID)
    if form.is_valid():
        data = form.cleaned_data
        try:
            if data["bot_name"]:
                entry = services.register_bot_entry(
                    tournament,
                    request.user,
                    bot_name=data["bot_name"],
                    display_name=data["display_name"],
                    number=data["number"],
                )
            else:
                entry = services.add_walk_in(
                    tournament,
                    request.user,
                    display_name=data["display_name"],
                    name_kana=data["name_kana"],
                    email=data["email"],
                    number=data["number"],
                    check_in=data["check_in"],
                )
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            late = entrant_row(entry).day  # type: ignore[attr-defined]
            names = {"number": entry.number, "name": entry.player.display_name}
            if late.is_late:
                done = _("Added #%(number)s %(name)s. Joins at round %(round)s.") % {
                    **names,
                    "round": late.joins_at,
                }
            else:
                done = _("Added #%(number)s %(name)s.") % names
            return _done(request, tournament, done)
    return _section(request, tournament, 422, walk_in_form=form, walk_in_open=True)


@login_required
@require_GET
def entry_row(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """The entrant's row as it is (an inline form's Cancel)."""
    tournament = _tournament(request, slug)
    return _row(request, _entry(tournament, entry_id))


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Edit an entrant's name, kana, e-mail or number in their row."""
    tournament = _tournament(request, slug)
    entry = _entry(tournament, entry_id)
    if request.method == "GET":
        form = EntrantForm(
            auto_id=_row_id(entry),
            initial={
                "display_name": entry.player.display_name,
                "name_kana": entry.player.name_kana,
                "email": entry.player.email,
                "number": entry.number,
            },
        )
        return _row(request, entry, mode="edit", form=form)
    form = EntrantForm(request.POST, auto_id=_row_id(entry))
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry = services.edit_entry(
                entry,
                request.user,
                display_name=data["display_name"],
                name_kana=data["name_kana"],
                email=data["email"],
                number=data["number"],
            )
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            if request.htmx:
                return _row(request, entry)
            messages.success(request, _("Saved #%(number)s.") % {"number": entry.number})
            return redirect("organiser:dashboard", slug=slug)
    return _row(request, entry, mode="edit", form=form, status=422)


# --- check-in, withdrawal, reinstatement ---


@login_required
@require_POST
def toggle_check_in(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Check in (受付) or undo it; checked in after a draw, they are seated from the next one."""
    tournament = _tournament(request, slug)
    entry = _entry(tournament, entry_id)
    try:
        entry = services.check_in_entry(
            entry, request.user, checked_in=entry.status != Entry.Status.CHECKED_IN
        )
    except services.DomainError as error:
        return _row(request, entry, status=422, error=_refusal(error))
    if request.htmx:
        return _row(request, entry)
    return redirect("organiser:dashboard", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def withdraw(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Withdraw an entrant (棄権): GET asks for the reason and confirmation in their row."""
    tournament = _tournament(request, slug)
    entry = _entry(tournament, entry_id)
    if request.method == "GET":
        return _row(request, entry, mode="withdraw", form=WithdrawForm(auto_id=_row_id(entry)))
    form = WithdrawForm(request.POST, auto_id=_row_id(entry))
    if form.is_valid():
        try:
            entry = services.withdraw_entry(entry, request.user, reason=form.cleaned_data["reason"])
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            day = entrant_row(entry).day  # type: ignore[attr-defined]
            done = [
                _("#%(number)s %(name)s withdrew.")
                % {"number": entry.number, "name": entry.player.display_name}
            ]
            if day.open_seat is not None:
                done.append(
                    _(
                        "They still hold seat %(seat)s at table %(table)s of round %(round)s: "
                        "forfeit their games there or seat a substitute."
                    )
                    % {
                        "seat": day.open_seat.position,
                        "table": day.open_seat.table_number,
                        "round": day.open_seat.round_number,
                    }
                )
            if day.needs_redraw:
                done.append(
                    _("Redraw round %(round)s: its draft still seats them.")
                    % {"round": day.draft_round}
                )
            return _done(request, tournament, " ".join(done))
    return _section(request, tournament, 422, mode="withdraw", mode_entry=entry.pk, form=form)


@login_required
@require_POST
def reinstate(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Undo a withdrawal: the entrant is seated again from the next draw."""
    tournament = _tournament(request, slug)
    entry = _entry(tournament, entry_id)
    form = ReinstateForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        entry = services.reinstate_entry(entry, request.user, reason=reason)
    except services.DomainError as error:
        return _section(request, tournament, 422, refused=_refusal(error))
    return _done(
        request,
        tournament,
        _("#%(number)s %(name)s is back: seated from the next draw.")
        % {"number": entry.number, "name": entry.player.display_name},
    )


# --- substitutes ---


def _substitute_form(tournament: Tournament, entry: Entry, data: Any = None) -> SubstituteForm:
    choices: list[tuple[int | str, str]] = [
        (e.pk, f"#{e.number} {e.player.display_name}")
        for e in substitutes_available(tournament, entry)
    ]
    return SubstituteForm(data, choices=choices, auto_id=_row_id(entry))


@login_required
@require_http_methods(["GET", "POST"])
def substitute(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """A substitute (補欠) takes the entrant's seat in the round being played (or their place
    between rounds): an entrant not seated in the round, or a new person."""
    tournament = _tournament(request, slug)
    entry = _entry(tournament, entry_id)
    if request.method == "GET":
        return _row(request, entry, mode="substitute", form=_substitute_form(tournament, entry))
    form = _substitute_form(tournament, entry, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        existing = (
            get_object_or_404(tournament.entries, pk=data["substitute"])
            if data["substitute"] is not None
            else None
        )
        try:
            new = services.substitute_entry(
                entry,
                request.user,
                substitute=existing,
                display_name=data["display_name"],
                name_kana=data["name_kana"],
                email=data["email"],
                reason=data["reason"],
            )
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            seat = entrant_row(new).day.open_seat  # type: ignore[attr-defined]
            names = {
                "number": new.number,
                "name": new.player.display_name,
                "for_number": entry.number,
                "for_name": entry.player.display_name,
            }
            if seat is not None:
                done = _(
                    "#%(number)s %(name)s substitutes for #%(for_number)s %(for_name)s at "
                    "table %(table)s of round %(round)s."
                ) % {**names, "table": seat.table_number, "round": seat.round_number}
            else:
                done = _("#%(number)s %(name)s substitutes for #%(for_number)s %(for_name)s.") % (
                    names
                )
            return _done(request, tournament, done)
    return _section(request, tournament, 422, mode="substitute", mode_entry=entry.pk, form=form)


# --- the CSV import: upload → preview → import ---


@login_required
@require_POST
def import_preview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Read the uploaded file (UTF-8 or Shift_JIS) and show what importing it would create, or
    every problem by row and column (422); nothing is saved."""
    tournament = _tournament(request, slug)
    form = CsvImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _section(request, tournament, 422, import_form=form)
    try:
        preview = services.preview_entries_csv(
            tournament, request.user, form.cleaned_data["file"].read()
        )
    except services.CsvImportError as error:
        return _section(
            request,
            tournament,
            422,
            import_errors=error.errors,
            import_encoding=error.encoding,
        )
    except services.DomainError as error:
        form.add_error(None, _refusal(error))
        return _section(request, tournament, 422, import_form=form)
    confirm = CsvConfirmForm(initial={"preview": services.sign_csv_preview(tournament, preview)})
    return _section(request, tournament, preview=preview, confirm_form=confirm)


@login_required
@require_POST
def import_csv(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Import exactly the previewed file (`preview`, signed by the server), validated again,
    all or nothing. A file posted directly (`file`, no preview: scripts) imports the same way."""
    tournament = _tournament(request, slug)
    confirm = CsvConfirmForm(request.POST)
    form = CsvImportForm(request.POST, request.FILES)
    try:
        if confirm.is_valid():
            imported = services.import_previewed_csv(
                tournament, request.user, confirm.cleaned_data["preview"]
            )
        elif form.is_valid():
            imported = services.import_entries_csv(
                tournament, request.user, form.cleaned_data["file"].read()
            )
        else:
            return _section(request, tournament, 422, import_form=form)
    except services.CsvImportError as error:
        return _section(
            request, tournament, 422, import_errors=error.errors, import_encoding=error.encoding
        )
    except services.DomainError as error:
        return _section(request, tournament, 422, import_refused=_refusal(error))
    if request.htmx:
        return _section(request, tournament, imported=imported)
    messages.success(
        request,
        ngettext("Imported %(count)s entrant.", "Imported %(count)s entrants.", len(imported))
        % {"count": len(imported)},
    )
    return redirect("organiser:dashboard", slug=slug)


# --- teams (掼蛋 Guandan pairs) ---


def _team(tournament: Tournament, team_id: int) -> Team:
    return get_object_or_404(tournament.teams, pk=team_id)


def _team_row(
    request: HtmxHttpRequest,
    team: Team,
    *,
    mode: str = "",
    form: Form | None = None,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    """The team's row (plain, or as an inline form) for htmx, else the dashboard with it."""
    extra = {"team_mode": mode, "mode_team": team.pk, "form": form, "team_error": error}
    if request.htmx:
        team = tournament_teams(team.tournament).get(pk=team.pk)
        context = {"tournament": team.tournament, "team": team, **extra}
        return render(request, TEAM_ROW, context, status=status)
    return _section(request, team.tournament, status=status, **extra)


def _team_added(request: HtmxHttpRequest, tournament: Tournament, team: Team) -> HttpResponse:
    """Entered anew or paired from entrants, a new team is announced the same way."""
    return _done(
        request,
        tournament,
        _("Added team %(number)s %(name)s.") % {"number": team.number, "name": team.name},
    )


@login_required
@require_POST
def add_team(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Enter two people as a new team (each entered as a walk-in is)."""
    tournament = _tournament(request, slug)
    form = TeamForm(request.POST, auto_id=TEAM_ID)
    if form.is_valid():
        data = form.cleaned_data
        members = [
            services.TeamMember(data[f"{n}_name"], data[f"{n}_kana"], data[f"{n}_email"])
            for n in ("first", "second")
        ]
        try:
            team = services.register_team(
                tournament,
                request.user,
                name=data["name"],
                members=members,
                check_in=data["check_in"],
            )
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            return _team_added(request, tournament, team)
    return _section(request, tournament, 422, team_form=form, team_open=True)


@login_required
@require_POST
def pair_entrants(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Pair two registered entrants into a team."""
    tournament = _tournament(request, slug)
    form = _pair_form(tournament, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        entries = list(tournament.entries.filter(pk__in=[data["first"], data["second"]]))
        entries.sort(key=lambda e: [data["first"], data["second"]].index(e.pk))
        try:
            team = services.form_team(tournament, request.user, name=data["name"], entries=entries)
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            return _team_added(request, tournament, team)
    return _section(request, tournament, 422, pair_form=form, pair_open=True)


@login_required
@require_GET
def team_row(request: HtmxHttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The team's row as it is (an inline form's Cancel)."""
    tournament = _tournament(request, slug)
    return _team_row(request, _team(tournament, team_id))


@login_required
@require_http_methods(["GET", "POST"])
def rename_team(request: HtmxHttpRequest, slug: str, team_id: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    team = _team(tournament, team_id)
    auto_id = f"id_team{team.pk}_%s"
    if request.method == "GET":
        form = RenameTeamForm(initial={"name": team.name}, auto_id=auto_id)
        return _team_row(request, team, mode="rename", form=form)
    form = RenameTeamForm(request.POST, auto_id=auto_id)
    if form.is_valid():
        try:
            team = services.rename_team(team, request.user, name=form.cleaned_data["name"])
        except services.DomainError as error:
            form.add_error(None, _refusal(error))
        else:
            if request.htmx:
                return _team_row(request, team)
            return redirect("organiser:dashboard", slug=slug)
    return _team_row(request, team, mode="rename", form=form, status=422)


@login_required
@require_http_methods(["GET", "POST"])
def dissolve_team(request: HtmxHttpRequest, slug: str, team_id: int) -> HttpResponse:
    """Dissolve a team that has not played: GET asks for confirmation in its row."""
    tournament = _tournament(request, slug)
    team = _team(tournament, team_id)
    if request.method == "GET":
        return _team_row(request, team, mode="dissolve")
    try:
        services.dissolve_team(team, request.user)
    except services.DomainError as error:
        return _team_row(request, team, status=422, error=_refusal(error))
    return _done(
        request,
        tournament,
        _("Team %(number)s %(name)s dissolved: its players stay entrants.")
        % {"number": team.number, "name": team.name},
    )
