"""The bridge to the engine's ruleset registry (tournaments → games.engine, never back)."""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.engine import Family, RuleSet, families, family_of, find_ruleset, rulesets
from games.engine.errors import RulesError

# The engine families the service runs: the organiser's choices, ruleset checks and standings
# metrics take only these.
SERVICE_FAMILIES: tuple[str, ...] = ("daifugo", "guandan", "daizaibatsu")

# Families played in fixed partnerships, and the players in each (掼蛋 Guandan: pairs, partners
# facing): their tournaments register teams, pair teams round by round and play a team match
# at each table.
TEAM_SIZES: dict[str, int] = {"guandan": 2}


def team_size(ruleset_id: str, version: int) -> int | None:
    """Players per team under the ruleset (None: everyone plays alone)."""
    return TEAM_SIZES.get(check_ruleset(ruleset_id, version).family)


def service_families() -> dict[str, Family]:
    """The registered families the service runs (:data:`SERVICE_FAMILIES`), by name."""
    return {name: f for name, f in families().items() if name in SERVICE_FAMILIES}


# The presets' names as people read them, in the page's language (the engine's own `name`
# is bilingual and stays as recorded); a preset missing here shows the engine's name.
RULESET_LABELS = {
    "jdf": _("JDF official rules (Japan Daifugo Federation)"),
    "gekijo": _("Gekijo house rules (All-Japan Theatre Daihinmin Association)"),
    "local": _("Local rules (seed-002)"),
    "uecda": _("UECda (UEC Computer Daihinmin Competition)"),
    "guandan-cn": _("Guandan competition rules (China)"),
    "guandan-pagat": _("Guandan as described at pagat.com"),
    "daizaibatsu": _("大財閥 (Daizaibatsu): an effect for every rank and a draw pile"),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Cycles:
    """Within a set: titles reset every `title_reset_every` games, players change seats every
    `seat_change_every` games (None: never)."""

    title_reset_every: int | None = None
    seat_change_every: int | None = None


# UECda's reference server resets titles every 100 games and changes seats every 3; it marks
# both constants "may change", so they are tournament settings defaulted from here (docs/rules.md
# flags them unverified). Every other preset plays a set without either.
CYCLE_DEFAULTS = {"uecda": Cycles(title_reset_every=100, seat_change_every=3)}


def cycle_defaults(ruleset_id: str) -> Cycles:
    return CYCLE_DEFAULTS.get(ruleset_id, Cycles())


class FromRuleset(enum.Enum):
    """A setting left to the ruleset's default (`cycle_defaults`)."""

    DEFAULT = "from the ruleset"


FROM_RULESET = FromRuleset.DEFAULT


# What a later version of a preset adds, for an organiser choosing between the versions.
VERSION_NOTES = {
    "gekijo@2": _("misplays (punrī) are recorded, the cards stay face up"),
    "uecda@2": _(
        "the last player may follow their own play; jokers beyond the ends and joker suits"
    ),
}


# What a new tournament plays unless the organiser picks another preset: the official rules.
DEFAULT_RULESET = "jdf@1"


def ruleset_choices() -> list[tuple[str, str]]:
    """(``id@version``, name) of every preset in the engine registry of the families the
    service runs (:data:`SERVICE_FAMILIES`); a preset with several versions names the version,
    and what a later one adds."""
    found = sorted((k, r) for k, r in rulesets().items() if r.family in SERVICE_FAMILIES)
    versions = Counter(rules.id for _key, rules in found)
    choices = []
    for key, rules in found:
        label = str(RULESET_LABELS.get(rules.id, rules.name))
        if versions[rules.id] > 1:
            label = str(
                _("%(name)s — version %(version)s") % {"name": label, "version": rules.version}
            )
            if key in VERSION_NOTES:
                label = f"{label}: {VERSION_NOTES[key]}"
        choices.append((key, label))
    return choices


def check_ruleset(ruleset_id: str, version: int) -> RuleSet:
    try:
        rules: RuleSet = find_ruleset(f"{ruleset_id}@{version}")
    except RulesError as error:
        raise ValidationError({"ruleset_id": str(error)}) from error
    if rules.family not in SERVICE_FAMILIES:
        raise ValidationError(
            {"ruleset_id": f"{ruleset_id}@{version} is a {rules.family} ruleset, not run here yet"}
        )
    return rules


# Switches the event does not pin: the table decides them (its seats), whatever the ruleset.
TABLE_DECIDES: frozenset[str] = frozenset({"seats"})


def with_overrides(rules: Any, overrides: Mapping[str, object] | None) -> Any:
    """`rules` with the event's (or the game's) switch values, through the family's own
    reading of a record's `{"preset", "overrides"}` (raises `RulesError`)."""
    if not overrides:
        return rules
    return family_of(rules).ruleset({"preset": rules.key, "overrides": dict(overrides)})


def event_rules(ruleset_id: str, version: int, overrides: Mapping[str, object] | None) -> Any:
    """The ruleset a tournament is played under: its pinned preset with its switch values."""
    return with_overrides(check_ruleset(ruleset_id, version), overrides)


def rules_for_table(
    ruleset_id: str, version: int, seats: int, overrides: Mapping[str, object] | None = None
) -> RuleSet:
    """The pinned ruleset, with the switch values the game was played under, for a table of
    `seats` players.

    Tables of 3 or 5 play any preset: the seat count is one more override (the table decides
    it, `TABLE_DECIDES`), so the ruleset's `to_record()` names it and a record of the game
    reads back the same ruleset (`ruleset_from_record`).
    """
    rules: RuleSet = event_rules(ruleset_id, version, overrides)
    if rules.seats == seats:
        return rules
    table: RuleSet = with_overrides(
        check_ruleset(ruleset_id, version), {**(overrides or {}), "seats": seats}
    )
    return table
