"""Forms for the organiser pages and the public deal check."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine import SwitchInfo, find_ruleset
from tournaments.models import MAX_GAMES_PER_SET, Stage, Tournament
from tournaments.points import PRESETS as POINTS_PRESETS
from tournaments.rulesets import DEFAULT_RULESET, TABLE_DECIDES, TEAM_SIZES, ruleset_choices
from tournaments.switch_words import switch_label, value_label

# The format fields a partnership preset (掼蛋 Guandan) decides itself: a team event's tables,
# sets and byes (`services.TEAM_FORMAT`); its match length is set on the settings page.
TEAM_DECIDED = ("games_per_set", "sets_per_round", "table_size", "uneven_tables", "bye_points")


class TournamentFromPresetForm(forms.Form):
    name = forms.CharField(label=pgettext_lazy("tournament", "Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        help_text=_(
            "Used in the tournament's web addresses, e.g. nagoya-open-2026: letters, digits "
            "and hyphens."
        ),
    )
    # The official rules come first to hand, not whichever preset sorts first (gekijo@1).
    ruleset = forms.ChoiceField(
        label=_("Ruleset preset"),
        choices=ruleset_choices,
        initial=DEFAULT_RULESET,
        help_text=_(
            "A Guandan (掼蛋) preset makes a team event: pairs, two teams a table, one match "
            "a round played until a team wins at A (the format fields below are then not used; "
            "the match length and match points are on the settings page)."
        ),
    )
    points_preset = forms.ChoiceField(
        label=_("Points table"),
        choices=[(key, label) for key, (label, _places) in POINTS_PRESETS.items()],
        help_text=_("The JDF's own points per title are not published; pick a labelled preset."),
    )
    games_per_set = forms.IntegerField(
        label=_("Games a set"), min_value=1, max_value=MAX_GAMES_PER_SET, initial=4
    )
    sets_per_round = forms.IntegerField(
        label=_("Sets a round"), min_value=1, max_value=10, initial=3
    )
    table_size = forms.IntegerField(label=_("Table size"), min_value=3, max_value=5, initial=4)
    uneven_tables = forms.ChoiceField(
        label=_("When the field does not divide into full tables"),
        choices=Tournament.UnevenTables.choices,
        initial=Tournament.UnevenTables.SHORT,
        help_text=_("Can change on the dashboard until a round of the stage is published."),
    )
    bye_points = forms.IntegerField(
        label=_("Points for a bye"),
        min_value=-1000,
        max_value=1000,
        initial=0,
        required=False,
        help_text=_("Scored by a player who sits out a round (byes only)."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    starts_on = forms.DateField(
        label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_bye_points(self) -> int:
        return int(self.cleaned_data.get("bye_points") or 0)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        ruleset = str(data.get("ruleset", ""))
        if ruleset and find_ruleset(ruleset).family in TEAM_SIZES:
            for field in TEAM_DECIDED:
                data.pop(field, None)
        return data


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Header row: number, display_name, name_kana, email (only display_name is "
            "required). UTF-8 (with or without BOM) or Shift_JIS, as Japanese Excel saves it. "
            "You see a preview before anything is imported."
        ),
    )


class CsvConfirmForm(forms.Form):
    """The previewed file, signed by the server: importing it creates exactly the preview."""

    preview = forms.CharField(widget=forms.HiddenInput)


class EntrantForm(forms.Form):
    """An entrant's details: a walk-in, or an edit of an entrant."""

    display_name = forms.CharField(label=_("Name"), max_length=80)
    name_kana = forms.CharField(label=_("Kana"), max_length=80, required=False)
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional; recognises a returning player. Never shown publicly."),
    )
    number = forms.IntegerField(
        label=_("Entrant No."),
        min_value=1,
        required=False,
        help_text=_("Blank: the next free number."),
    )


class WalkInForm(EntrantForm):
    check_in = forms.BooleanField(label=_("Checked in now"), required=False)
    bot_name = forms.CharField(
        label=_("Bot name (UECda)"),
        max_length=14,
        required=False,
        help_text=_(
            "Only for a bot: the name its program sends when it connects to the UECda bridge. "
            "A bot is checked in at once."
        ),
    )


class TeamForm(forms.Form):
    """A new team of two people entered now (掼蛋 Guandan pairs)."""

    name = forms.CharField(label=pgettext_lazy("team list", "Team name"), max_length=120)
    first_name = forms.CharField(label=_("Player 1: name"), max_length=80)
    first_kana = forms.CharField(label=_("Player 1: kana"), max_length=80, required=False)
    first_email = forms.EmailField(label=_("Player 1: e-mail"), required=False)
    second_name = forms.CharField(label=_("Player 2: name"), max_length=80)
    second_kana = forms.CharField(label=_("Player 2: kana"), max_length=80, required=False)
    second_email = forms.EmailField(label=_("Player 2: e-mail"), required=False)
    check_in = forms.BooleanField(label=_("Checked in now"), required=False)


class PairEntrantsForm(forms.Form):
    """A team formed from two entrants already registered."""

    name = forms.CharField(label=pgettext_lazy("team list", "Team name"), max_length=120)
    first = forms.TypedChoiceField(label=pgettext_lazy("team list", "Player 1"), coerce=int)
    second = forms.TypedChoiceField(label=pgettext_lazy("team list", "Player 2"), coerce=int)

    def __init__(
        self, *args: object, choices: Sequence[tuple[int | str, str]] = (), **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for name in ("first", "second"):
            self.fields[name].choices = [("", "—"), *choices]  # type: ignore[attr-defined]


class RenameTeamForm(forms.Form):
    name = forms.CharField(label=pgettext_lazy("team list", "Team name"), max_length=120)


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        help_text=_("Kept in the audit record."),
    )


class ReinstateForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class SubstituteForm(forms.Form):
    """Who takes the seat: an entrant not seated in the round, or a new person."""

    substitute = forms.TypedChoiceField(
        label=_("Existing entrant"),
        coerce=int,
        required=False,
        empty_value=None,
    )
    display_name = forms.CharField(label=_("…or a new person: name"), max_length=80, required=False)
    name_kana = forms.CharField(label=_("Kana"), max_length=80, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(
        self, *args: object, choices: Sequence[tuple[int | str, str]] = (), **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["substitute"].choices = [("", _("— a new person below —")), *choices]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        has_existing = data.get("substitute") is not None
        has_new = bool((data.get("display_name") or "").strip())
        if has_existing == has_new:
            raise forms.ValidationError(
                _("Choose an existing entrant or enter a new person's name (one of the two).")
            )
        return data


class VerifyDealForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1)
    set_number = forms.IntegerField(label=_("Set"), min_value=1)
    game = forms.IntegerField(label=_("Game"), min_value=1)
    # A voided game re-dealt is the same game again with a new deal (attempt 2, 3…).
    attempt = forms.IntegerField(label=_("Attempt"), min_value=1, initial=1, required=False)


# --- stages, settings, leagues and seasons (issue #12) -----------------------------------------


class StageForm(forms.Form):
    """A new cut or final, or an edit of a stage. For a new stage the rule is who advances INTO
    it (stored on the previous stage); when editing, who advances OUT of the stage edited."""

    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[("cut", _("Cut")), ("final", _("Final"))],
    )
    advance_top_n = forms.IntegerField(
        label=_("Top N by total points"), min_value=0, required=False
    )
    advance_top_k_per_table = forms.IntegerField(
        label=_("Top K of each table"), min_value=0, max_value=5, required=False
    )
    carry_over_totals = forms.BooleanField(
        label=_("Carry totals over from earlier stages"), required=False
    )
    tournament_order = forms.ChoiceField(
        label=_("Overall order"),
        choices=Stage.TournamentOrder.choices,
        initial=Stage.TournamentOrder.STAGE_FIRST,
        required=False,
        help_text=_(
            "Stage reached first: everyone who plays this stage ranks above everyone who "
            "stopped before it, in this stage's order. Together with the previous stage: "
            "they are ranked with those who stopped at the stage before by total points."
        ),
    )


def switch_field(name: str) -> str:
    """The settings form's field of a rule switch."""
    return f"switch_{name}"


def switch_text(value: object) -> str:
    """A switch value as the form carries it: JSON (`true`, `"choice"`, `2`) for a choice, the
    cards separated by spaces for a list."""
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def switch_value(text: str) -> object:
    """What the organiser wrote or chose, as the engine reads a record's override (None:
    left empty, no value of the event's own)."""
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        # Cards are written as on the table, "3D 3S": a list, or one card.
        parts = text.replace(",", " ").split()
        return parts if len(parts) > 1 else text


def _switch_field(switch: SwitchInfo, fixed: bool) -> forms.Field:
    label = switch_label(switch.name)
    help_text = _("%(name)s · preset: %(value)s") % {
        "name": switch.name,
        "value": value_label(switch.name, switch.preset),
    }
    initial = switch_text(switch.value)
    if switch.choices is None:
        return forms.CharField(
            label=label, required=False, initial=initial, help_text=help_text, disabled=fixed
        )
    choices = [(switch_text(c), value_label(switch.name, c)) for c in switch.choices]
    if switch.value is None:  # no value yet (a switch without a default): choose one
        choices.insert(0, ("", str(_("— choose —"))))
    return forms.ChoiceField(
        label=label,
        required=False,
        choices=choices,
        initial=initial,
        help_text=help_text,
        disabled=fixed,
    )


def switch_overrides(form: forms.Form, switches: Sequence[SwitchInfo]) -> Mapping[str, object]:
    """The event's switch values the form holds (each switch given a value); a switch the
    request did not send keeps its value."""
    values = {}
    for switch in switches:
        name = switch_field(switch.name)
        if name not in form.data:
            value = switch.value
        else:
            value = switch_value(str(form.cleaned_data.get(name) or ""))
        if value is not None:
            values[switch.name] = value
    return values


class TournamentSettingsForm(forms.Form):
    """Every setting an organiser may change (the ruleset is pinned: shown, never edited)."""

    name = forms.CharField(label=pgettext_lazy("tournament", "Name"), max_length=200)
    starts_on = forms.DateField(
        label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Ends on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    season = forms.TypedChoiceField(label=_("Season"), required=False, coerce=int, empty_value=None)
    status = forms.ChoiceField(label=_("Status"))
    points_preset = forms.ChoiceField(label=_("Points table"))
    places_3 = forms.CharField(
        label=_("Custom: 3-player table"), required=False, help_text=_("e.g. 2 1 0")
    )
    places_4 = forms.CharField(
        label=_("Custom: 4-player table"), required=False, help_text=_("e.g. 3 2 1 0")
    )
    places_5 = forms.CharField(
        label=_("Custom: 5-player table"), required=False, help_text=_("e.g. 4 3 2 1 0")
    )
    last_game_bonus = forms.CharField(
        label=_("Last-game bonus"),
        required=False,
        help_text=_("place:points, e.g. 1:20 (extra points in the last game of a set)"),
    )
    tie_breaks = forms.CharField(
        label=_("Tie-break keys"),
        required=False,
        help_text=_("In order, separated by spaces."),
    )
    games_per_set = forms.IntegerField(label=_("Games a set"), min_value=1)
    sets_per_round = forms.IntegerField(label=_("Sets a round"), min_value=1)
    # No min_value here: the service refuses 0 or less with the one message the API gives too.
    title_reset_every = forms.IntegerField(
        label=_("Titles reset every (games)"),
        required=False,
        help_text=_(
            "UECda (階級リセット): the game after each cycle is played like a set's first, with "
            "no titles and no card exchange. Blank: never within a set."
        ),
    )
    seat_change_every = forms.IntegerField(
        label=_("Seats change every (games)"),
        required=False,
        help_text=_(
            "UECda (席替え): the players move to a new seating drawn from the round's seed. "
            "Blank: never within a set."
        ),
    )
    table_size = forms.IntegerField(label=_("Table size"), min_value=3, max_value=5)
    uneven_tables = forms.ChoiceField(label=_("When the field does not divide into full tables"))
    bye_points = forms.IntegerField(label=_("Points for a bye"))
    undo_requires_approval = forms.BooleanField(
        label=_("An undo waits for the head referee"), required=False
    )
    rated = forms.BooleanField(
        label=_("Rated: the games count towards the players' ratings"),
        required=False,
        help_text=_("Individual events only; a team event (掼蛋) is never rated."),
    )
    forfeit_others = forms.ChoiceField(label=_("After a player leaves mid-game"))
    forfeit_leaver_points = forms.IntegerField(
        label=_("Points for the leaver"),
        required=False,
        help_text=_("Blank: last place's points."),
    )
    think_seconds = forms.IntegerField(
        label=_("Think time per decision (seconds)"),
        required=False,
        min_value=0,
        help_text=_("Blank: the preset's (JDF 20 s, others none). 0: no clock."),
    )
    # Not required: a post without them (an older page, a script) keeps the tournament's.
    time_fault_rule = forms.ChoiceField(
        label=_("A time fault gives"),
        choices=Tournament.TimeFaultRule.choices,
        required=False,
    )
    time_fault_points = forms.IntegerField(
        label=_("Points a time fault deducts"),
        min_value=1,
        required=False,
        help_text=_("With a points deduction."),
    )
    # A team event's match (掼蛋 Guandan): shown only there.
    match_length = forms.ChoiceField(
        label=_("A match lasts"), choices=Tournament.MatchLength.choices
    )
    match_minutes = forms.IntegerField(
        label=_("Time limit (minutes)"),
        required=False,
        help_text=_("With a time limit: the hand in play when time is up is the last."),
    )
    match_points_by = forms.ChoiceField(
        label=pgettext_lazy("team settings", "Match points"),
        choices=Tournament.MatchPointsBy.choices,
    )
    match_win = forms.IntegerField(label=_("Match points for a win"))
    match_draw = forms.IntegerField(label=_("Match points for a draw"))
    match_loss = forms.IntegerField(label=_("Match points for a loss"))

    # What a team event does not use: its tables seat two pairs, it plays one match a round,
    # an odd team out has a bye, and a match has no titles to reset nor seats to change; a
    # hand scores the winning pair's level gain and the match its match points, never a
    # points table; and a team hand is never forfeited (it is voided or ruled by its order).
    DAIFUGO_ONLY = (
        "rated",
        "sets_per_round",
        "title_reset_every",
        "seat_change_every",
        "table_size",
        "uneven_tables",
        "points_preset",
        "places_3",
        "places_4",
        "places_5",
        "last_game_bonus",
        "tie_breaks",
        "forfeit_others",
        "forfeit_leaver_points",
    )
    TEAM_ONLY = (
        "match_length",
        "match_minutes",
        "match_points_by",
        "match_win",
        "match_draw",
        "match_loss",
    )

    def __init__(
        self,
        *args: object,
        seasons: Sequence[tuple[int | str, str]] = (),
        presets: Sequence[tuple[str, str | Promise]] = (),
        statuses: Sequence[tuple[str, str | Promise]] = (),
        uneven: Sequence[tuple[str, str | Promise]] = (),
        forfeit: Sequence[tuple[str, str | Promise]] = (),
        team: bool = False,
        switches: Sequence[SwitchInfo] = (),
        switches_fixed: bool = False,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.team = team
        self.switches = [s for s in switches if s.name not in TABLE_DECIDES]
        for switch in self.switches:
            self.fields[switch_field(switch.name)] = _switch_field(switch, switches_fixed)
        for name in self.DAIFUGO_ONLY if team else self.TEAM_ONLY:
            del self.fields[name]
        if team:
            self.fields["games_per_set"].label = _("Hands a match (at most)")
            self.fields["games_per_set"].help_text = _(
                "A fixed number of hands: that number. Until A or with a time limit: the most "
                "hands a match may last."
            )
            self.fields["bye_points"].label = _("Match points for a bye (by level difference)")
            self.fields["bye_points"].help_text = _(
                "By result, a team with a bye scores a win's match points."
            )
        self.fields["season"].choices = [("", _("— none —")), *seasons]  # type: ignore[attr-defined]
        self.fields["status"].choices = statuses  # type: ignore[attr-defined]
        if not team:
            self.fields["points_preset"].choices = presets  # type: ignore[attr-defined]
            self.fields["uneven_tables"].choices = uneven  # type: ignore[attr-defined]
            self.fields["forfeit_others"].choices = forfeit  # type: ignore[attr-defined]


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Address"), max_length=80, help_text=_("e.g. jdf-cup"))


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(label=_("Address"), max_length=80, help_text=_("e.g. 2026"))
