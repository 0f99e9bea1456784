"""The tournament settings page (htmx): every setting an organiser may change after creation,
each unsafe change refused and explained on its own field (`services.update_tournament_settings`
decides; this view only turns the form into changes). The ruleset is pinned: shown read-only;
its switches are the event's to set ("Rules of this event", one field per switch) until a round
is published."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import BoundField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from tournaments import services
from tournaments.forms import TournamentSettingsForm, switch_field, switch_overrides
from tournaments.models import Round, Season, Tournament
from tournaments.points import (
    CUSTOM_PRESET,
    DEFAULT_TIE_BREAKS,
    TIE_BREAK_KEYS,
    custom_points_table,
    preset_choices,
    preset_points_table,
)
from tournaments.rulesets import event_rules
from tournaments.selectors import organised_tournaments
from tournaments.switch_words import switch_label, value_label


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# Service field → the form field its refusal is shown on.
FORM_FIELD = {"points_table": "points_preset", "match_points": "match_win"}


def _target(field: str) -> str:
    """The form field a service field's refusal or change is shown on (a rule switch's own)."""
    if field.startswith("ruleset_overrides."):
        return switch_field(field.removeprefix("ruleset_overrides."))
    return FORM_FIELD.get(field, field)


def _label(form: TournamentSettingsForm, field: str) -> str:
    if field == "ruleset_overrides":
        return str(_("Rules of this event"))
    name = _target(field)
    return str(form.fields[name].label) if name in form.fields else field


def _published(tournament: Tournament) -> bool:
    return (
        Round.objects.filter(stage__tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .exists()
    )


def _form(tournament: Tournament, data: Any = None) -> TournamentSettingsForm:
    table = tournament.points_table
    places = table.get("places", {})
    bonus = table.get("last_game_bonus", {})
    initial = {
        "name": tournament.name,
        "starts_on": tournament.starts_on,
        "ends_on": tournament.ends_on,
        "venue": tournament.venue,
        "season": tournament.season_id,
        "status": tournament.status,
        "points_preset": table.get("preset") or CUSTOM_PRESET,
        **{f"places_{n}": " ".join(str(p) for p in places.get(str(n), [])) for n in (3, 4, 5)},
        "last_game_bonus": " ".join(f"{k}:{v}" for k, v in bonus.items()),
        "tie_breaks": " ".join(table.get("tie_breaks") or DEFAULT_TIE_BREAKS),
        "games_per_set": tournament.games_per_set,
        "sets_per_round": tournament.sets_per_round,
        "title_reset_every": tournament.title_reset_every,
        "seat_change_every": tournament.seat_change_every,
        "table_size": tournament.table_size,
        "uneven_tables": tournament.uneven_tables,
        "bye_points": tournament.bye_points,
        "undo_requires_approval": tournament.undo_requires_approval,
        "rated": tournament.rated,
        "forfeit_others": tournament.forfeit_others,
        "forfeit_leaver_points": tournament.forfeit_leaver_points,
        "think_seconds": tournament.think_seconds,
        "time_fault_rule": tournament.time_fault_rule,
        "time_fault_points": tournament.time_fault_points,
        "match_length": tournament.match_length,
        "match_minutes": tournament.match_minutes,
        "match_points_by": tournament.match_points_by,
        "match_win": tournament.match_points.get("win"),
        "match_draw": tournament.match_points.get("draw"),
        "match_loss": tournament.match_points.get("loss"),
    }
    seasons = [
        (season.pk, f"{season.league.name} · {season.name}")
        for season in Season.objects.select_related("league").order_by("league__name", "-slug")
    ]
    rules = event_rules(
        tournament.ruleset_id, tournament.ruleset_version, tournament.ruleset_overrides
    )
    return TournamentSettingsForm(
        data,
        initial=initial,
        switches=rules.describe_switches(),
        switches_fixed=_published(tournament),
        seasons=seasons,
        presets=[*preset_choices(), (CUSTOM_PRESET, _("Custom table"))],
        statuses=Tournament.Status.choices,
        uneven=Tournament.UnevenTables.choices,
        forfeit=Tournament.ForfeitOthers.choices,
        team=tournament.plays_in_teams,
    )


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.replace(",", " ").split()]


def _points_table(tournament: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    """The points table the form describes (raises `ValidationError` or `ValueError`)."""
    keys = data["tie_breaks"].split()
    unknown = [k for k in keys if k not in TIE_BREAK_KEYS]
    if unknown:
        raise ValidationError(
            ngettext(
                "Unknown tie-break key: %(keys)s.",
                "Unknown tie-break keys: %(keys)s.",
                len(unknown),
            )
            % {"keys": ", ".join(unknown)},
            code="unknown_tie_break",
        )
    current = tournament.points_table
    if tuple(keys) == DEFAULT_TIE_BREAKS and "tie_breaks" not in current:
        keys = []  # the default order, left implicit as it was
    preset = data["points_preset"]
    if preset == CUSTOM_PRESET:
        places = {n: _numbers(data[f"places_{n}"]) for n in (3, 4, 5) if data.get(f"places_{n}")}
        bonus = {}
        for part in data.get("last_game_bonus", "").replace(",", " ").split():
            place, _, points = part.partition(":")
            bonus[int(place)] = int(points)
        return custom_points_table(places, last_game_bonus=bonus, tie_break_keys=keys or None)
    table = preset_points_table(preset)
    if keys:
        table["tie_breaks"] = keys
    return table


def _changes(tournament: Tournament, form: TournamentSettingsForm) -> dict[str, Any]:
    data = form.cleaned_data
    changes = {
        field: data[field]
        for field in (
            "name",
            "starts_on",
            "ends_on",
            "venue",
            "status",
            "games_per_set",
            "sets_per_round",
            "title_reset_every",
            "seat_change_every",
            "table_size",
            "uneven_tables",
            "bye_points",
            "undo_requires_approval",
            "rated",
            "forfeit_others",
            "forfeit_leaver_points",
            "think_seconds",
            "match_length",
            "match_minutes",
            "match_points_by",
        )
        if field in form.fields
    }
    for field in ("time_fault_rule", "time_fault_points"):
        if data.get(field) not in (None, ""):
            changes[field] = data[field]
    if form.team:
        changes["match_points"] = {
            "win": data["match_win"],
            "draw": data["match_draw"],
            "loss": data["match_loss"],
        }
    if form.switches:
        changes["ruleset_overrides"] = switch_overrides(form, form.switches)
    season_id = data["season"]
    changes["season"] = Season.objects.filter(pk=season_id).first() if season_id else None
    if "points_preset" not in form.fields:  # a team event: no points table to change
        return changes
    try:
        changes["points_table"] = _points_table(tournament, data)
    except ValidationError as error:
        form.add_error("points_preset", _points_error(error))
    except ValueError:
        form.add_error(
            "points_preset",
            _("Write whole numbers separated by spaces, and the bonus as place:points."),
        )
    return changes


# `points.validate_points_table` explains a custom table in English (the API's words); the
# settings page says what to fix in its own language, by the error's code.
POINTS_ERRORS = {
    "no_places": gettext_lazy("Enter the points of at least one custom table."),
    "bad_length": gettext_lazy("Each custom table needs one number per place (per seat)."),
    "bad_points": gettext_lazy("Points must be whole numbers."),
    "increasing": gettext_lazy("Points must not increase from first place to last."),
    "bad_bonus": gettext_lazy("The last-game bonus gives places 1–5 whole extra points."),
    "bad_tie_breaks": gettext_lazy("Each tie-break key may appear once."),
}


def _points_error(error: ValidationError) -> str:
    said = []
    for item in error.error_list:
        known = POINTS_ERRORS.get(str(item.code))
        said.append(str(known) if known else " ".join(item.messages))
    return _("Check the points table: %(problems)s") % {"problems": " ".join(said)}


def _locks(tournament: Tournament) -> dict[str, str]:
    """What is already fixed, said beside each field before the organiser tries."""
    rounds = Round.objects.filter(stage__tournament=tournament)
    locks: dict[str, str] = {}
    if rounds.exclude(status=Round.Status.DRAFT).exists():
        fixed = _("Fixed: a round is published.")
        for field in (
            "games_per_set",
            "sets_per_round",
            "title_reset_every",
            "seat_change_every",
            "match_length",
            "match_minutes",
        ):
            locks[field] = fixed
        locks["ruleset_overrides"] = fixed
    if rounds.exists():
        locks["table_size"] = _("Fixed: a round is drawn.")
    moves = services.STATUS_MOVES[tournament.status]
    labels = dict(Tournament.Status.choices)
    locks["status"] = (
        _("Can move to: %(statuses)s") % {"statuses": ", ".join(str(labels[m]) for m in moves)}
        if moves
        else _("Finished: stays finished.")
    )
    return locks


@dataclasses.dataclass(frozen=True)
class SwitchRow:
    """One rule switch on the page: its form field, and whether (and from what) the event
    changed it."""

    bound: BoundField
    name: str
    changed: bool
    preset: str


def _rules_context(tournament: Tournament, form: TournamentSettingsForm) -> dict[str, Any]:
    """The "Rules of this event" section: every switch, those changed from the preset, and
    those that still need a value before the first draw."""
    rules = event_rules(
        tournament.ruleset_id, tournament.ruleset_version, tournament.ruleset_overrides
    )
    rows = [
        SwitchRow(form[switch_field(s.name)], s.name, s.changed, value_label(s.name, s.preset))
        for s in form.switches
    ]
    unset = [switch_label(name) for name in rules.unset_switches()]
    changed = [
        f"{switch_label(s.name)}: {value_label(s.name, s.value)}"
        for s in form.switches
        if s.changed
    ]
    return {
        "switch_rows": rows,
        "switches_changed": changed,
        "switches_unset": unset,
        "switches_open": bool(unset) or any(row.bound.errors for row in rows),
    }


@login_required
@require_http_methods(["GET", "POST"])
def settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(organised_tournaments(request.user), slug=slug)
    form = _form(tournament, request.POST or None)
    status = 200
    result: services.SettingsChange | None = None
    if request.method == "POST":
        status = 422
        if form.is_valid():
            changes = _changes(tournament, form)
            if form.is_valid():  # no points-table error added
                try:
                    result = services.update_tournament_settings(
                        tournament, request.user, **changes
                    )
                except services.SettingsRefused as refused:
                    for field, error in refused.errors.items():
                        target = _target(field)
                        message = in_active_language(error.message_en, error.message_ja)
                        form.add_error(
                            target if target in form.fields else None,
                            f"{message} [{error.code}]",
                        )
                except services.DomainError as error:
                    form.add_error(None, in_active_language(error.message_en, error.message_ja))
                else:
                    status = 200
                    tournament.refresh_from_db()
                    form = _form(tournament)
    context = {
        "tournament": tournament,
        "form": form,
        "result": result,
        # What was saved, in the words of the form ("Games a set", not "games_per_set").
        "saved": [_label(form, field) for field in result.changed] if result else [],
        "locks": _locks(tournament),
        **_rules_context(tournament, form),
        "tie_break_keys": TIE_BREAK_KEYS.items(),
    }
    template = (
        "organiser/settings.html#settings-body" if request.htmx else "organiser/settings.html"
    )
    return render(request, template, context, status=status)
