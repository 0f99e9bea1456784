"""Game families: the one interface every game of the climbing family offers, and their registry.

A *family* is a game with its own cards, moves and states — 大富豪 (``daifugo``), 掼蛋
(``guandan``), later 大財閥 (``daizaibatsu``). A *ruleset* names a family and the values of its
switches (``jdf@1``, ``uecda@2``). Everything outside a family — the record format, replay and
conformance CLIs, deals, snapshots, the service — talks to the :class:`Family` interface only,
in the spirit of python-chess's variant registry (``chess.variant.find_variant``)::

    >>> from games.engine.family import find_ruleset, family_of
    >>> rules = find_ruleset("jdf@1")
    >>> family = family_of(rules)
    >>> family.name, rules.key
    ('daifugo', 'jdf@1')

A state may wait on decisions that are not the turn's play: :meth:`Family.pending` lists the
seats that must decide now and what (cards to give, a target, a choice). The Daifugo exchange
is one user of this; Guandan's tribute and 大財閥's targets are others.

Results are family-neutral (:class:`SeatResult`: place, team, points and a family-specific
``detail``), and a family declares the :class:`Metric` s standings count over that detail and
the tie-break keys they give, so nothing downstream hard-codes a family's titles.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar, cast

from .errors import RecordError, RulesError

MORE: Final = "more"
FEWER: Final = "fewer"


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision a seat owes before the game can go on (besides the turn's play).

    ``kind`` names it (``give``: ``count`` cards to another seat; ``target``; ``choice``);
    :meth:`Family.legal_moves` lists the moves that make it.
    """

    seat: int
    kind: str
    count: int = 0
    to: int | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "kind": self.kind}
        if self.count:
            out["count"] = self.count
        if self.to is not None:
            out["to"] = self.to
        return out


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result in a finished game, in terms every family shares.

    ``points`` is the ruleset's own score for the place when it has one (UECda 5…1), else
    ``None`` (the tournament's points table decides). ``team`` is the partnership (Guandan)
    or ``None``. ``detail`` is the family's own: for 大富豪 ``title``, ``foul``,
    ``miyako_ochi`` (都落ち) and ``stalemate`` (千日手).
    """

    seat: int
    place: int
    team: int | None
    points: int | None
    detail: Mapping[str, object]

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "place": self.place,
            "team": self.team,
            "points": self.points,
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class Metric:
    """A count standings keep per competitor over the family's result ``detail``.

    ``count`` results whose ``detail[field] == equals``, or (``equals`` None) ``sum`` the
    integer ``detail[field]``. ``better`` says which way it breaks ties; the tie-break key is
    ``key`` (more is better) or ``fewer_<key>``.
    """

    key: str
    field: str
    equals: str | bool | None = None
    better: str = MORE

    @property
    def tie_break(self) -> str:
        return self.key if self.better == MORE else f"fewer_{self.key}"

    def value(self, detail: Mapping[str, object]) -> int:
        """What one result adds to the metric."""
        got = detail.get(self.field)
        if self.equals is None:
            return got if type(got) is int else 0
        return 1 if got == self.equals else 0


@dataclass(frozen=True, slots=True)
class SwitchInfo:
    """One switch of a ruleset, described alike for every family (a settings page lists them).

    ``choices`` are the values it may take when they are finite (``None``: any value its
    family's check accepts, e.g. a list of cards). ``preset`` is the value the ruleset's preset
    gives it and ``value`` the ruleset's own; either is ``None`` for a switch that has no value
    (no default, not set yet): see :meth:`Rules.unset_switches`.
    """

    name: str
    description: str
    choices: tuple[object, ...] | None
    preset: object | None
    value: object | None

    @property
    def changed(self) -> bool:
        """The ruleset gives the switch another value than its preset does."""
        # `True == 1`: compare the types too, so a bool never passes for an int.
        return type(self.value) is not type(self.preset) or self.value != self.preset


class Rules(Protocol):
    """What every family's ruleset offers (each family has its own switches besides).

    Switches are listed alike for every family by :meth:`describe_switches`; a family may
    have switches without a default (大財閥), which :meth:`unset_switches` names until they are
    set: a ruleset with any is not playable yet.
    """

    @property
    def id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def seats(self) -> int: ...
    def to_record(self) -> str | dict[str, object]: ...
    def unset_switches(self) -> tuple[str, ...]:
        """Switches that have no value and must be set (overrides) before play; ``()`` when
        the ruleset is complete."""

    def describe_switches(self) -> tuple[SwitchInfo, ...]:
        """Every switch of the ruleset, in its family's order (:class:`SwitchInfo`)."""


class GameRecord(Protocol):
    """A family's validated record: the set-up and the actions, in order."""

    @property
    def rules(self) -> Any: ...
    def sections(self) -> Sequence[tuple[str, Sequence[Any]]]:
        """The record's action lists by name, in the order they are played (``moves``; 大富豪
        has ``exchange`` first)."""

    def initial_state(self) -> Any: ...


class MatchRecord(Protocol):
    """A family's validated record of a whole match: its games in order, each game's set-up
    following from the end of the game before (Guandan: levels, failures at A, tribute)."""

    @property
    def rules(self) -> Any: ...
    @property
    def count(self) -> int:
        """How many games the record holds."""

    def game(self, index: int, previous: Any | None) -> GameRecord:
        """Game ``index``'s record, its set-up derived from ``previous`` (the final state of
        the game before; ``None`` for the first); raises ``RecordError``."""

    def game_start(self, state: Any) -> dict[str, object]:
        """What the game of ``state`` started from (Guandan: its match state), for the replay
        output."""

    def game_result(self, state: Any) -> dict[str, object] | None:
        """What a finished game did to the match (``None`` while it is not over)."""

    def standing(self, state: Any) -> dict[str, object]:
        """The match after the game that ended in ``state``: ``finished``, ``winner`` …"""


class MatchFamily(Protocol):
    """A family whose games chain into matches that a record can hold whole (Guandan); see
    :func:`match_family`."""

    @property
    def match_record_keys(self) -> frozenset[str]:
        """A match record's top-level keys (besides ``format`` and ``rules``)."""

    def load_match_record(self, obj: Mapping[str, object], rules: Any) -> MatchRecord: ...
    def export_match_record(self, games: Sequence[tuple[Any, Sequence[Any]]]) -> dict[str, object]:
        """The family's keys of a match record: each game's start and actions, in order."""


class Family(Protocol):
    """The interface of a game family. States and moves are the family's own values."""

    @property
    def name(self) -> str: ...
    @property
    def presets(self) -> Mapping[str, Rules]:
        """Its rulesets by key (``jdf@1`` …)."""

    @property
    def metrics(self) -> tuple[Metric, ...]:
        """The counts standings keep, best-first tie-breaks included (:class:`Metric`)."""

    @property
    def record_keys(self) -> frozenset[str]:
        """The record's top-level keys this family reads (besides ``format`` and ``rules``)."""

    def ruleset(self, value: object) -> Rules:
        """A ruleset from a record's ``rules`` (a name or ``{"preset", "overrides"}``)."""

    def new_game(self, rules: Any, **setup: Any) -> Any: ...
    def legal_moves(self, state: Any) -> Iterator[Any]: ...
    def apply(self, state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
        """The state after ``move`` and its events; raises ``IllegalMove`` and changes nothing."""

    def pending(self, state: Any) -> tuple[Decision, ...]: ...
    def to_move(self, state: Any) -> tuple[int, ...]:
        """Every seat that may act now (the turn, pending decisions, out-of-turn answers)."""

    def is_over(self, state: Any) -> bool: ...
    def observe(self, state: Any, viewer: int | None = None) -> dict[str, object]:
        """What ``viewer`` (a seat, or ``None`` = the public) may see; never a hidden hand."""

    def outcome(self, state: Any) -> tuple[SeatResult, ...] | None:
        """The results once the game is over, first place first; ``None`` before."""

    def placings(self, state: Any) -> list[dict[str, object]]:
        """The record format's ``placings`` (the replay output) for ``state``."""

    def load_record(self, obj: Mapping[str, object], rules: Any) -> GameRecord:
        """The family's part of a record (set-up keys and actions); raises ``RecordError``."""

    def export_record(self, start: Any, actions: Sequence[Any]) -> dict[str, object]:
        """The family's record keys for a game started at ``start`` followed by ``actions``."""

    def move_from_json(self, value: object, key: str, seats: int) -> Any: ...
    def move_to_json(self, move: Any) -> dict[str, object]: ...
    def deal(self, seed: bytes | str, rules: Any) -> Any: ...
    def snapshot(self, state: Any) -> dict[str, object]: ...
    def restore(self, setup: Any, data: Mapping[str, object]) -> Any: ...


class Preset(Protocol):
    """What :func:`find_preset` and :func:`preset_from_record` need of a family's ruleset."""

    @property
    def id(self) -> str: ...
    @property
    def version(self) -> int: ...
    def with_overrides(self, **overrides: object) -> Any: ...


P = TypeVar("P", bound=Preset)


def find_preset(presets: Mapping[str, P], name: str, game: str) -> P:
    """One of a family's ``presets`` by ``id`` (the latest version) or ``id@version``;
    ``game`` names the family in the error (``"Guandan"``)."""
    key = name.strip().lower()
    if "@" not in key:
        versions = [r for r in presets.values() if r.id == key]
        if versions:
            return max(versions, key=lambda r: r.version)
    found = presets.get(key)
    if found is None:
        raise RulesError(f"unknown {game} ruleset {name!r} (known: {', '.join(presets)})")
    return found


def preset_from_record(value: object, presets: Mapping[str, P], game: str) -> P:
    """A ruleset from a record's ``rules``: a preset name or ``{"preset", "overrides"}``."""
    if isinstance(value, str):
        return find_preset(presets, value, game)
    if not isinstance(value, dict) or not isinstance(value.get("preset"), str):
        raise RulesError("rules must be a preset name or {preset, overrides}")
    if set(value) - {"preset", "overrides"}:
        raise RulesError("rules has keys other than preset and overrides")
    overrides = value.get("overrides", {})
    if not isinstance(overrides, dict):
        raise RulesError("rules.overrides must be an object")
    found: P = find_preset(presets, value["preset"], game).with_overrides(**overrides)
    return found


_FAMILIES: dict[str, Family] = {}
_RULESETS: dict[str, Rules] = {}
_LATEST: dict[str, str] = {}


def register(family: Family) -> Family:
    """Add a family and its presets to the registry (each family module registers itself)."""
    if family.name in _FAMILIES:
        raise RulesError(f"family {family.name!r} is registered twice")
    _FAMILIES[family.name] = family
    for key, rules in family.presets.items():
        if key in _RULESETS:
            raise RulesError(f"ruleset {key!r} is registered twice")
        _RULESETS[key] = rules
        latest = _LATEST.get(rules.id)
        if latest is None or _RULESETS[latest].version < rules.version:
            _LATEST[rules.id] = key
    return family


def families() -> Mapping[str, Family]:
    """Every registered family by name."""
    return dict(_FAMILIES)


def rulesets() -> Mapping[str, Rules]:
    """Every registered ruleset by key (``jdf@1`` …), all families."""
    return dict(_RULESETS)


def latest_rulesets() -> list[Rules]:
    """The newest version of each ruleset id."""
    return [_RULESETS[key] for key in sorted(_LATEST.values())]


def find_ruleset(name: str) -> Any:
    """Resolve ``"jdf"`` (latest version) or ``"jdf@1"`` in any family; raises ``RulesError``.

    The result names its family (``.family``); :func:`family_of` gives the family itself.
    """
    if not isinstance(name, str):
        raise RulesError(f"ruleset name must be a string, got {name!r}")
    key = name.strip().lower()
    if "@" not in key:
        key = _LATEST.get(key, key + "@?")
    found = _RULESETS.get(key)
    if found is None:
        known = ", ".join(sorted(_RULESETS))
        raise RulesError(f"unknown ruleset {name!r} (known: {known})")
    return found


def ruleset_from_record(value: object) -> Any:
    """The ruleset a record's ``rules`` names: a name, or ``{"preset": …, "overrides": …}``."""
    if isinstance(value, str):
        return find_ruleset(value)
    if isinstance(value, dict):
        preset = value.get("preset")
        if not isinstance(preset, str):
            raise RulesError("rules.preset must be a ruleset name")
        return family_of(find_ruleset(preset)).ruleset(value)
    raise RulesError(f"rules must be a name or an object, got {value!r}")


def family_of(rules: Rules) -> Family:
    """The family a ruleset belongs to."""
    found = _FAMILIES.get(rules.family)
    if found is None:
        raise RulesError(f"no family {rules.family!r} for ruleset {rules.key!r}")
    return found


def family_named(name: str) -> Family:
    """A family by name; raises ``RecordError`` (code ``unknown_family``) when unknown."""
    found = _FAMILIES.get(name)
    if found is None:
        raise RecordError(f"unknown game family {name!r}", key="family", code="unknown_family")
    return found


def match_family(rules: Rules) -> MatchFamily | None:
    """The family of ``rules`` if it has match records (offers :class:`MatchFamily`), else
    ``None``. Read by attribute: the compiled engine has no runtime protocol checks."""
    family = family_of(rules)
    if not hasattr(family, "load_match_record"):
        return None
    return cast("MatchFamily", family)


def form_error(message: str, message_ja: str, key: str) -> RecordError:
    """A record's move object is not of the family's form (``key`` names the part at fault)."""
    return RecordError(message, key=key, message_ja=message_ja)


def read_move_object(
    value: object, key: str, seats: int, allowed: frozenset[str], actions: Sequence[str]
) -> tuple[Mapping[str, object], int, str]:
    """The part of a move object every family checks alike: an object with only ``allowed``
    keys, a ``seat`` in range, and exactly one of ``actions``. Returns the object, its seat
    and its action; raises :func:`form_error`'s :class:`RecordError`."""
    if not isinstance(value, dict):
        raise form_error(f"expected an object, got {value!r}", "手は JSON オブジェクトです", key)
    unknown = set(value) - allowed
    if unknown:
        name = sorted(map(str, unknown))[0]
        raise form_error(f"unknown key {name!r}", f"不明なキー {name!r}", key)
    seat = value.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise form_error(
            f"'seat' must be 0..{seats - 1}", f"'seat' は 0〜{seats - 1} です", f"{key}.seat"
        )
    present = [k for k in actions if k in value]
    if len(present) != 1:
        raise form_error(
            f"a move has exactly one of {', '.join(actions[:-1])} or {actions[-1]}",
            f"{'・'.join(actions)} のどれか一つを指定してください",
            key,
        )
    return value, seat, present[0]
