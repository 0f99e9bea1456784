"""Rulesets as data: an immutable :class:`RuleSet` of named switches, and the presets.

A game records the ruleset it was played under as ``id@version`` (or, with
overrides, ``{"preset": "jdf", "overrides": {...}}``).  Changing what a preset
means requires a new version.

Every switch listed in :data:`SWITCHES` is implemented and tested for every value
it accepts; presets of later issues (gekijo, local, uecda …) will add switches
over the same mechanisms.

>>> find_ruleset("jdf@1").with_overrides(spade3_ignores_lock=True).spade3_ignores_lock
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import JOKERS, NUMBERS, format_card, parse_card
from .errors import InvalidNotation, RulesError

SwitchValue = bool | int | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Switch:
    """Documentation and validation of one switch."""

    name: str
    doc: str
    reference: str
    check: Callable[[object], SwitchValue]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """An immutable ruleset: identity plus named switches (see :data:`SWITCHES`)."""

    id: str
    version: int
    name: str
    seats: int = 4
    blind_cards: int = 2
    first_lead_cards: tuple[str, ...] = ("3S", "3C", "3D", "3H")
    joker_pair_allowed: bool = True
    revolution_set_size: int = 4
    eight_cut: bool = True
    eight_cut_in_stairs: bool = False
    spade_three_return: bool = True
    spade3_ignores_lock: bool = False
    suit_lock: bool = True
    suit_lock_after: int = 1
    miyako_ochi: bool = True
    lone_spade3_finish_is_foul: bool = True
    overrides: tuple[tuple[str, SwitchValue], ...] = ()

    @property
    def key(self) -> str:
        """``id@version``, e.g. ``jdf@1``."""
        return f"{self.id}@{self.version}"

    def with_overrides(self, **switches: object) -> RuleSet:
        """A copy with some switches changed.

        Unknown names or bad values raise :class:`RulesError`.
        """
        values: dict[str, SwitchValue] = dict(self.overrides)
        for name, raw in switches.items():
            switch = SWITCHES.get(name)
            if switch is None:
                raise RulesError(f"unknown switch {name!r}")
            values[name] = switch.check(raw)
        preset = PRESETS.get(self.key, self)
        base = dataclasses.replace(preset, overrides=())
        # Overrides equal to the preset value are dropped, so equal rulesets compare equal.
        kept = tuple(sorted((k, v) for k, v in values.items() if getattr(base, k) != v))
        changed: dict[str, Any] = dict(kept)
        return dataclasses.replace(base, overrides=kept, **changed)

    def to_record(self) -> str | dict[str, object]:
        """The value of a record's ``rules`` key for this ruleset."""
        if not self.overrides:
            return self.key
        return {
            "preset": self.key,
            "overrides": {k: list(v) if isinstance(v, tuple) else v for k, v in self.overrides},
        }

    def switches(self) -> dict[str, SwitchValue]:
        """Every switch and its value."""
        return {name: getattr(self, name) for name in SWITCHES}


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"expected true or false, got {value!r}")
    return value


def _int_in(*allowed: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise RulesError(f"expected one of {list(allowed)}, got {value!r}")
        return value

    return check


def _lead_cards(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not value:
        raise RulesError(f"expected a non-empty list of cards, got {value!r}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise RulesError(f"expected a card, got {item!r}")
        try:
            card = parse_card(item)
        except InvalidNotation as exc:
            raise RulesError(str(exc)) from exc
        if (1 << card) & JOKERS or not (1 << card) & NUMBERS:
            raise RulesError("a joker cannot be the opening card")
        name = format_card(card)
        if name in out:
            raise RulesError(f"opening card {name} listed twice")
        out.append(name)
    return tuple(out)


SWITCHES: Final[dict[str, Switch]] = {
    s.name: s
    for s in (
        Switch(
            "blind_cards",
            "Number cards removed unseen before each deal (ブラインドカード); never jokers. "
            "0 deals all 54 cards (seats 0 and 1 then get 14).",
            "REFERENCE §1.1 rule 2, A3",
            _int_in(0, 1, 2, 3, 4),
        ),
        Switch(
            "first_lead_cards",
            "Opening card of a first game and its fallbacks, in order: the holder of the first "
            "of these cards still in play leads and must include it in the first play.",
            "REFERENCE §1.1 rule 22, A4 (3S, then 3C, 3D, 3H)",
            _lead_cards,
        ),
        Switch(
            "joker_pair_allowed",
            "The two jokers together (JK JK) are a pair, the strongest one.",
            "REFERENCE A5",
            _bool,
        ),
        Switch(
            "revolution_set_size",
            "A set of at least this many cards (jokers count) reverses the order (革命); "
            "0 disables revolutions.",
            "REFERENCE §1.1 rule 10",
            _int_in(0, 4, 5, 6),
        ),
        Switch(
            "eight_cut",
            "A single 8 or a set of 8s (jokers standing in count) clears the trick (8切り).",
            "REFERENCE §1.1 rule 11, A11",
            _bool,
        ),
        Switch(
            "eight_cut_in_stairs",
            "Stairs whose run covers rank 8 (natural or joker) also cut.",
            "REFERENCE §8 item 5 (JDF: no)",
            _bool,
        ),
        Switch(
            "spade_three_return",
            "A single 3S beats a single joker and clears the trick (スペ3返し).",
            "REFERENCE §1.1 rule 12",
            _bool,
        ),
        Switch(
            "spade3_ignores_lock",
            "The ♠3 return is allowed even when a suit lock on another suit is on.",
            "REFERENCE A7 (default: the lock applies)",
            _bool,
        ),
        Switch(
            "suit_lock",
            "Suit lock (スートしばり): after matching plays every play must use the locked suits.",
            "REFERENCE §1.1 rule 13, A8, A12",
            _bool,
        ),
        Switch(
            "suit_lock_after",
            "Consecutive joker-free suit matches that start the lock (JDF: the first match).",
            "REFERENCE §1.1 rule 13; §8 item 6",
            _int_in(1, 2),
        ),
        Switch(
            "miyako_ochi",
            "The reigning 大富豪 is out at once, hand discarded, when another player makes the "
            "first clean finish (都落ち).",
            "REFERENCE §1.1 rule 17",
            _bool,
        ),
        Switch(
            "lone_spade3_finish_is_foul",
            "Any lone 3S as the final play is a foul finish; when false, only a ♠3 return is.",
            "REFERENCE §1.1 rule 18(c), A6",
            _bool,
        ),
    )
}

JDF: Final = RuleSet(id="jdf", version=1, name="日本大富豪連盟 公式ルール (JDF official rules)")

PRESETS: Final[Mapping[str, RuleSet]] = {JDF.key: JDF}
_LATEST: Final[dict[str, str]] = {JDF.id: JDF.key}


def find_ruleset(name: str) -> RuleSet:
    """Resolve ``"jdf"`` (latest version) or ``"jdf@1"``; raises :class:`RulesError`."""
    if not isinstance(name, str):
        raise RulesError(f"ruleset name must be a string, got {name!r}")
    key = name.strip().lower()
    if "@" not in key:
        key = _LATEST.get(key, key + "@?")
    ruleset = PRESETS.get(key)
    if ruleset is None:
        known = ", ".join(sorted(PRESETS))
        raise RulesError(f"unknown ruleset {name!r} (known: {known})")
    return ruleset


def ruleset_from_record(value: object) -> RuleSet:
    """The ruleset named by a record's ``rules`` value (a name or ``{"preset", "overrides"}``)."""
    if isinstance(value, str):
        return find_ruleset(value)
    if isinstance(value, dict):
        unknown = set(value) - {"preset", "overrides"}
        if unknown:
            raise RulesError(f"unknown key {sorted(unknown)[0]!r} in rules")
        preset = value.get("preset")
        if not isinstance(preset, str):
            raise RulesError("rules.preset must be a ruleset name")
        overrides = value.get("overrides", {})
        if not isinstance(overrides, dict):
            raise RulesError("rules.overrides must be an object")
        return find_ruleset(preset).with_overrides(**{str(k): v for k, v in overrides.items()})
    raise RulesError(f"rules must be a name or an object, got {value!r}")
