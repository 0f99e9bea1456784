"""大財閥 (Daizaibatsu) rulesets: the switches, their readings of the source's ambiguities, and
the preset ``daizaibatsu@1``.

The one source describes the card effects but not the deck, the 上がり殺し (finish kill) card
or 財閥革命; every reading the engine had to choose is a switch here (F1–F15, the README's
table), the recommended reading its default. Two switches have **no default**
(:data:`NO_DEFAULT`): an organiser must set them before a game is played, and
:meth:`DaizaibatsuRules.unset_switches` names those still unset so a service can ask::

    >>> DAIZAIBATSU.unset_switches()
    ('finish_kill_card', 'zaibatsu_revolution')
    >>> rules = DAIZAIBATSU.with_overrides(finish_kill_card="off", zaibatsu_revolution="off")
    >>> rules.unset_switches()
    ()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from .errors import InvalidNotation, RulesError
from .family import SwitchInfo, find_preset, preset_from_record

FAMILY: Final = "daizaibatsu"
OFF: Final = "off"

# Values of the switches that are not yes/no.
REPEAT_SEATS_FROM_DRAWER: Final = "seat_order_from_drawer"

SWITCHES: Final[Mapping[str, tuple[tuple[object, ...], str]]] = {
    "seats": ((3, 4, 5, 6), "F1: number of players"),
    "hand_size": (
        tuple(range(1, 19)),
        "F1: cards dealt to each player; the rest of the 108 cards (2 packs + 4 jokers) is the "
        "draw pile (山札)",
    ),
    "pile_renewals": (
        (0, 1, 2, 3),
        "F2: how many times the flowed, discarded and destroyed cards are reshuffled into a new "
        "pile when a draw finds it empty; the next exhaustion at a draw ends the game (rule 24)",
    ),
    "eight_cut_window": (
        (True, False),
        "F3: after an 8-cut, until the cutter's next move, another player may answer out of turn "
        "with 砂嵐, four or more 3s, or a stairs revolution containing a 3",
    ),
    "forbidden_finish": (
        (True, False),
        "F4: finishing with 3s only during a revolution, 8s only, 2s only in normal order or "
        "jokers only is illegal (code forbidden_finish); off: allowed",
    ),
    "skip_counts_finished": (
        (False, True),
        "F5: a 5-skip counts only the players still in (off) or every seat (on), in the "
        "current direction",
    ),
    "reverse_per_card": (
        (False, True),
        "F6: a play of several 9s reverses the direction once (off) or once per 9 (on)",
    ),
    "three_nines_at_once": (
        (True, False),
        "F7: the three-9 revolution applies at once (on) or, like rule 20, when the others "
        "have passed (off)",
    ),
    "zaibatsu_revolution": (
        (OFF,),
        "F8: 財閥革命 / 大財閥革命; not defined by the source, so only 'off' exists until the "
        "organiser supplies the rule. No default: must be set",
    ),
    "finish_kill_card": (
        (OFF, "<card>"),
        "F9 / rule 23: the 上がり殺し card (e.g. '7S', 'JK'), or 'off'. No default: must be set",
    ),
    "counter_draw_returns_finished": (
        (True, False),
        "F10: the counter-revolution draws (rule 21) reach players who have gone out, who come "
        "back into play (on); off: only players still in draw",
    ),
    "number_lock": (
        (False,),
        "F11: number lock (数字縛り) is not used; the source's number-lock paragraph repeats the "
        "suit-lock text, so one value only, kept so a record states it",
    ),
    "stairs_effects_in_order": (
        (True, False),
        "F12: effects inside stairs run weakest to strongest in the effective order (on) or "
        "in card order, 3 to 2 (off); the stairs revolution comes last either way",
    ),
    "double_back_factor": (
        (2, 1),
        "F13: a 倍返し (joker double-back) makes the player of the 2 or 9 draw this many times "
        "the amount (2: 2 → 4n, 9 → 6)",
    ),
    "pass_is_final": (
        (True,),
        "F14: a pass is final until the trick flows (the Japanese norm; a 5-skip counts as a pass)",
    ),
    "counter_toggles": (
        (True, False),
        "F15: each revolution of a chain toggles the order once (on: one counter-revolution "
        "leaves the order as before); off: the chain reverses the order once whatever its length",
    ),
}

NO_DEFAULT: Final = ("finish_kill_card", "zaibatsu_revolution")
"""Switches the organiser must set: the preset leaves them ``None``."""


@dataclass(frozen=True, slots=True)
class DaizaibatsuRules:
    """A 大財閥 ruleset: :data:`SWITCHES` under a preset's name (``None`` = not set yet)."""

    id: str
    version: int
    name: str
    seats: int = 4
    hand_size: int = 13
    pile_renewals: int = 2
    eight_cut_window: bool = True
    forbidden_finish: bool = True
    skip_counts_finished: bool = False
    reverse_per_card: bool = False
    three_nines_at_once: bool = True
    zaibatsu_revolution: str | None = None
    finish_kill_card: str | None = None
    counter_draw_returns_finished: bool = True
    number_lock: bool = False
    stairs_effects_in_order: bool = True
    double_back_factor: int = 2
    pass_is_final: bool = True
    counter_toggles: bool = True
    family: str = FAMILY

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"

    def switches(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in SWITCHES}

    def describe_switches(self) -> tuple[SwitchInfo, ...]:
        """Every switch of :data:`SWITCHES`, the preset's value and this ruleset's; the
        上がり殺し card takes any card name, so it lists no finite choices."""
        preset = PRESETS.get(self.key, self)
        return tuple(
            SwitchInfo(
                name,
                doc,
                None if name == "finish_kill_card" else allowed,
                getattr(preset, name),
                getattr(self, name),
            )
            for name, (allowed, doc) in SWITCHES.items()
        )

    def unset_switches(self) -> tuple[str, ...]:
        """The switches without a default that are still unset (the organiser must decide)."""
        return tuple(name for name in NO_DEFAULT if getattr(self, name) is None)

    def require_complete(self) -> None:
        """Raise :class:`RulesError` naming the unset switches, if any (no game without them)."""
        unset = self.unset_switches()
        if unset:
            raise RulesError(
                f"{self.key}: the organiser must set {', '.join(unset)} before play "
                "(the source does not define them)"
            )

    def to_record(self) -> str | dict[str, object]:
        """The preset's key, or ``{"preset", "overrides"}`` when switches differ from it."""
        preset = PRESETS.get(self.key)
        if preset == self:
            return self.key
        base = preset.switches() if preset is not None else {}
        changed = {k: v for k, v in self.switches().items() if base.get(k) != v}
        return {"preset": self.key, "overrides": changed}

    def with_overrides(self, **overrides: object) -> DaizaibatsuRules:
        for name, value in overrides.items():
            if name not in SWITCHES:
                raise RulesError(
                    f"unknown Daizaibatsu switch {name!r} (known: {', '.join(SWITCHES)})"
                )
            if name == "finish_kill_card":
                _check_kill_card(value)
                continue
            allowed = SWITCHES[name][0]
            if type(value) is not type(allowed[0]) or value not in allowed:
                raise RulesError(f"{name} must be one of {list(allowed)}, got {value!r}")
        return replace(self, **overrides)  # type: ignore[arg-type]

    @property
    def kill_card(self) -> int | None:
        """The finish-kill card's number (52 for a joker), or ``None`` when off or unset."""
        name = self.finish_kill_card
        if name is None or name == OFF:
            return None
        return kill_card_number(name)


def kill_card_number(name: str) -> int:
    from .cards import parse_card

    card = parse_card(name)
    return 52 if card >= 52 else card


def _check_kill_card(value: object) -> None:
    if value == OFF:
        return
    if not isinstance(value, str):
        raise RulesError(f"finish_kill_card must be 'off' or a card name, got {value!r}")
    try:
        kill_card_number(value)
    except InvalidNotation:
        raise RulesError(f"finish_kill_card: {value!r} is not a card") from None


DAIZAIBATSU: Final = DaizaibatsuRules("daizaibatsu", 1, "大財閥")
PRESETS: Final[Mapping[str, DaizaibatsuRules]] = {DAIZAIBATSU.key: DAIZAIBATSU}


def find_daizaibatsu(name: str) -> DaizaibatsuRules:
    """A preset by ``id`` (the latest version) or ``id@version``."""
    return find_preset(PRESETS, name, "Daizaibatsu")


def ruleset_from_record(value: object) -> DaizaibatsuRules:
    """A ruleset from a record's ``rules``: a preset name or ``{"preset", "overrides"}``."""
    return preset_from_record(value, PRESETS, "Daizaibatsu")
