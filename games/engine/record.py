"""The ``kakumei-record/1`` game record: load and validate, replay, export.

See ``record-format.md``.  :func:`replay` is what ``python -m games.engine replay``
and the conformance vectors use: every move gets a verdict, and an illegal move is
not applied (the next one is judged against the unchanged state), as a referee
console behaves.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from . import daifugo as _daifugo  # noqa: F401  (registers the family)
from . import guandan as _guandan  # noqa: F401  (registers the family)
from .errors import EngineError, IllegalMove, RecordError, RulesError
from .events import Event
from .family import Family, GameRecord, MatchRecord, family_of, match_family, ruleset_from_record

FORMAT: Final = "kakumei-record/1"
CONFORMANCE_FORMAT: Final = "kakumei-conformance/1"


def load_record(data: str | bytes | Mapping[str, object]) -> GameRecord:
    """Parse and validate a record (JSON text or a decoded object).

    ``format`` and ``rules`` are read here; the ruleset names the family, which reads the
    rest (its set-up keys and actions). Raises :class:`RecordError` naming the key (or card)
    at fault; moves are only checked for form — their legality is what :func:`replay` judges.
    """
    obj = _without_clock(_decoded(data))
    rules = _rules_of(obj)
    family = family_of(rules)
    _refuse_unknown_keys(obj, family.record_keys)
    return family.load_record(obj, rules)


def is_match_record(data: object) -> bool:
    """Whether a decoded record holds a whole match (``games``) rather than one game."""
    return isinstance(data, Mapping) and "games" in data


def load_match_record(data: str | bytes | Mapping[str, object]) -> MatchRecord:
    """Parse and validate a match record: ``format``, ``rules`` and the family's ``games``
    (record-format.md §8). Raises :class:`RecordError`, as :func:`load_record`; a family
    without match records refuses ``games``."""
    obj = _without_clock(_decoded(data))
    rules = _rules_of(obj)
    family = match_family(rules)
    if family is None:
        raise RecordError(f"{rules.key} has no match records", key="games")
    _refuse_unknown_keys(obj, family.match_record_keys)
    return family.load_match_record(obj, rules)


def _decoded(data: str | bytes | Mapping[str, object]) -> Mapping[str, object]:
    if isinstance(data, str | bytes):
        try:
            obj: object = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RecordError("a record is a JSON object")
    if obj.get("format") != FORMAT:
        raise RecordError(f"expected {FORMAT!r}, got {obj.get('format')!r}", key="format")
    return obj


CLOCK_KEYS: Final = frozenset({"limit_ms", "think_ms", "exchange_think_ms", "faults"})
FAULT_KEYS: Final = frozenset({"move", "seat", "rule", "think_ms", "points"})
FAULT_RULES: Final = frozenset({"warning", "forced_pass", "penalty"})


def _without_clock(obj: Mapping[str, object]) -> Mapping[str, object]:
    """The record without its optional ``clock`` (record-format.md §3), checked for form: the
    think times and time faults are the referee's, so the replay never reads them."""
    if "clock" not in obj:
        return obj
    check_clock(obj)
    return {key: value for key, value in obj.items() if key != "clock"}


def _count(value: object) -> int | None:
    return len(value) if isinstance(value, list) else None


def _moves_in(obj: Mapping[str, object]) -> int | None:
    """How many moves the record holds: its ``moves``, or every game's in a match record."""
    games = obj.get("games")
    if isinstance(games, list):
        counts = [_count(g.get("moves", [])) if isinstance(g, dict) else None for g in games]
        return None if None in counts else sum(c for c in counts if c is not None)
    return _count(obj.get("moves", []))


def _ms_list(value: object, key: str, length: int | None) -> None:
    if not isinstance(value, list):
        raise RecordError("a list of milliseconds", key=key)
    for i, item in enumerate(value):
        if item is not None and (type(item) is not int or item < 0):
            raise RecordError("milliseconds: a whole number from 0, or null", key=f"{key}[{i}]")
    if length is not None and len(value) != length:
        raise RecordError(f"one entry per move: {length}, not {len(value)}", key=key)


def check_clock(obj: Mapping[str, object]) -> None:
    """Raise :class:`RecordError` unless ``obj["clock"]`` is a well-formed clock: ``limit_ms``
    (whole ms or null), ``think_ms`` (one per move, whole ms or null), ``exchange_think_ms``
    (one per exchange give), ``faults`` (``{"move", "seat", "rule"}``, optionally
    ``think_ms`` and ``points``)."""
    clock = obj["clock"]
    if not isinstance(clock, dict):
        raise RecordError("the clock is an object", key="clock")
    unknown = set(clock) - CLOCK_KEYS
    if unknown:
        raise RecordError("unknown key", key=f"clock.{sorted(map(str, unknown))[0]}")
    limit = clock.get("limit_ms")
    if limit is not None and (type(limit) is not int or limit < 0):
        raise RecordError("milliseconds: a whole number from 0, or null", key="clock.limit_ms")
    moves = _moves_in(obj)
    if "think_ms" in clock:
        _ms_list(clock["think_ms"], "clock.think_ms", moves)
    if "exchange_think_ms" in clock:
        _ms_list(clock["exchange_think_ms"], "clock.exchange_think_ms", _count(obj.get("exchange")))
    faults = clock.get("faults", [])
    if not isinstance(faults, list):
        raise RecordError("a list of time faults", key="clock.faults")
    seats = obj.get("seats", 5)
    for i, fault in enumerate(faults):
        key = f"clock.faults[{i}]"
        if not isinstance(fault, dict):
            raise RecordError("a time fault is an object", key=key)
        if set(fault) - FAULT_KEYS:
            raise RecordError("unknown key", key=f"{key}.{sorted(set(fault) - FAULT_KEYS)[0]}")
        for name in ("move", "seat", "think_ms", "points"):
            value = fault.get(name, 0)
            if type(value) is not int or value < 0:
                raise RecordError("a whole number from 0", key=f"{key}.{name}")
        if "move" not in fault or "seat" not in fault:
            raise RecordError("a time fault names its move and seat", key=key)
        if moves is not None and fault["move"] > moves:
            raise RecordError(f"no move {fault['move']} to time", key=f"{key}.move")
        if type(seats) is int and fault["seat"] >= seats:
            raise RecordError(f"no seat {fault['seat']}", key=f"{key}.seat")
        if fault.get("rule") not in FAULT_RULES:
            raise RecordError("warning, forced_pass or penalty", key=f"{key}.rule")


def _rules_of(obj: Mapping[str, object]) -> Any:
    try:
        return ruleset_from_record(obj.get("rules", "jdf"))
    except RulesError as exc:
        raise RecordError(str(exc), key="rules", code=exc.code) from None


def _refuse_unknown_keys(obj: Mapping[str, object], known: frozenset[str]) -> None:
    unknown = set(obj) - known - {"format", "rules"}
    if unknown:
        raise RecordError("unknown key", key=str(sorted(map(str, unknown))[0]))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verdict on one move of a record."""

    index: int
    ok: bool
    events: tuple[Event, ...] = ()
    error: IllegalMove | None = None

    def to_dict(self) -> dict[str, object]:
        if self.ok:
            return {"i": self.index, "ok": True, "events": [e.kind for e in self.events]}
        assert self.error is not None
        return {
            "i": self.index,
            "ok": False,
            "code": self.error.code,
            "message": self.error.message_en,
        }


@dataclass(slots=True)
class Replay:
    """The result of :func:`replay`: verdicts per section, and the state after the last legal
    action."""

    record: GameRecord
    state: Any
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)

    @property
    def family(self) -> Family:
        return family_of(self.record.rules)

    @property
    def moves(self) -> list[Verdict]:
        return self.verdicts.get("moves", [])

    @property
    def exchange(self) -> list[Verdict]:
        return self.verdicts.get("exchange", [])

    @property
    def finished(self) -> bool:
        return self.family.is_over(self.state)

    def to_dict(self) -> dict[str, object]:
        """The replay output of record-format.md: a verdict list per section of the record
        (``moves``, plus ``exchange`` when a 大富豪 record has one), ``finished``, ``placings``."""
        out: dict[str, object] = {
            name: [v.to_dict() for v in verdicts] for name, verdicts in self.verdicts.items()
        }
        out["finished"] = self.finished
        out["placings"] = self.family.placings(self.state)
        return out


def replay(record: GameRecord | str | bytes | Mapping[str, object]) -> Replay:
    """Judge every action of a record in order (illegal ones are skipped, as a referee
    console does: the next one is judged against the unchanged state)."""
    # Text or a decoded object is loaded first; a loaded record has its sections.
    if hasattr(record, "sections"):
        loaded: GameRecord = record  # type: ignore[assignment]
    else:
        loaded = load_record(record)
    family = family_of(loaded.rules)
    state = loaded.initial_state()
    result = Replay(loaded, state)
    sections = loaded.sections()
    for name, actions in sections:
        result.verdicts[name] = []
        for i, action in enumerate(actions):
            state = _judge(family, state, action, i, result.verdicts[name])
    result.state = state
    return result


def _judge(family: Family, state: Any, action: Any, index: int, out: list[Verdict]) -> Any:
    try:
        new, events = family.apply(state, action)
    except IllegalMove as exc:
        out.append(Verdict(index, False, error=exc))
        return state
    out.append(Verdict(index, True, events))
    return new


@dataclass(slots=True)
class MatchReplay:
    """The result of :func:`replay_match`: each game's :class:`Replay`, in order."""

    record: MatchRecord
    games: list[Replay] = field(default_factory=list)

    @property
    def state(self) -> Any:
        """The final state of the record's last game."""
        return self.games[-1].state

    def to_dict(self) -> dict[str, object]:
        """The replay output of a match record (record-format.md §8): per game its ``match``
        (what it started from), verdicts, ``finished``, ``placings`` and ``result``; then the
        match's ``finished``, ``winner``, ``levels`` and ``failures``."""
        games = [
            {
                "match": self.record.game_start(game.state),
                **game.to_dict(),
                "result": self.record.game_result(game.state),
            }
            for game in self.games
        ]
        return {"games": games, **self.record.standing(self.state)}


def replay_match(record: MatchRecord | str | bytes | Mapping[str, object]) -> MatchReplay:
    """Replay a whole match, game after game: each game's set-up follows from the final state
    of the game before (never from what the record states of it, which must agree). Raises
    :class:`RecordError` for a game that cannot follow (key ``games[i]…``)."""
    loaded = load_match_record(record) if isinstance(record, str | bytes | Mapping) else record
    result = MatchReplay(loaded)
    previous: Any = None
    for index in range(loaded.count):
        game = replay(loaded.game(index, previous))
        result.games.append(game)
        previous = game.state
    return result


def replay_any(data: str | bytes | Mapping[str, object]) -> Replay | MatchReplay:
    """:func:`replay_match` for a match record, else :func:`replay` (the ``replay`` command)."""
    obj = _decoded(data)
    return replay_match(obj) if is_match_record(obj) else replay(obj)


def export_record(start: Any, actions: Iterable[Any]) -> dict[str, object]:
    """A ``kakumei-record/1`` object for a game started at ``start`` (its initial state or
    set-up) followed by ``actions`` (every action, in the order they were applied)."""
    rules = start.rules
    record: dict[str, object] = {"format": FORMAT, "rules": rules.to_record()}
    record.update(family_of(rules).export_record(start, list(actions)))
    return record


def export_match_record(games: Iterable[tuple[Any, Iterable[Any]]]) -> dict[str, object]:
    """A ``kakumei-record/1`` match record: each game's start (initial state or set-up) and
    its actions, in the order the games were played."""
    started = [(start, list(actions)) for start, actions in games]
    rules = started[0][0].rules
    family = match_family(rules)
    if family is None:
        raise RecordError(f"{rules.key} has no match records", key="games")
    record: dict[str, object] = {"format": FORMAT, "rules": rules.to_record()}
    record.update(family.export_match_record(started))
    return record


# --- conformance vectors ---------------------------------------------------------------

VECTOR_KEYS: Final = frozenset({"format", "name", "reference", "description", "record", "expect"})
EXPECT_KEYS: Final = frozenset({"moves", "exchange", "finished", "placings", "observe"})
MATCH_EXPECT_KEYS: Final = frozenset({"games", "finished", "winner", "levels", "failures", "error"})
GAME_EXPECT_KEYS: Final = EXPECT_KEYS | {"match", "result"}


def check_vector(vector: Mapping[str, object]) -> list[str]:
    """Run a ``kakumei-conformance/1`` vector through :func:`replay` (or, for a match record,
    :func:`replay_match`); the list of mismatches.

    ``expect.moves`` / ``expect.exchange`` list verdicts by ``i``, each checking only
    the keys it gives (``ok``, ``code``, ``events``); ``finished`` and ``placings``
    compare with the replay output (each placing checks the keys it gives);
    ``observe`` compares keys of the public :func:`observe` view of the final state.
    A match vector's ``expect.games`` gives those per game (plus ``match`` and ``result``,
    each checking the keys it gives), and ``finished``, ``winner``, ``levels``, ``failures``
    the match's; or only ``error``, the ``key`` and ``code`` the record must be refused with.
    """
    unknown = set(vector) - VECTOR_KEYS
    if unknown or vector.get("format") != CONFORMANCE_FORMAT:
        raise RecordError(
            f"not a {CONFORMANCE_FORMAT} vector (keys: {sorted(map(str, unknown))})", key="format"
        )
    record = vector.get("record")
    if not isinstance(record, dict):
        raise RecordError("expected a record object", key="record")
    expect = vector.get("expect")
    if is_match_record(record):
        return _check_match_vector(record, expect)
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        raise RecordError("expect must be an object with known keys", key="expect")
    result = replay(record)
    return _check_game(result.to_dict(), result, expect, "")


def _check_match_vector(record: Mapping[str, object], expect: object) -> list[str]:
    if not isinstance(expect, dict) or set(expect) - MATCH_EXPECT_KEYS:
        raise RecordError("expect must be an object with known keys", key="expect")
    if "error" in expect:
        return _check_refusal(record, expect["error"])
    result = replay_match(record)
    output = result.to_dict()
    problems = [
        f"{key}: expected {expect[key]!r}, got {output[key]!r}"
        for key in ("finished", "winner", "levels", "failures")
        if key in expect and output[key] != expect[key]
    ]
    wanted_games = expect.get("games", [])
    got_games = output["games"]
    assert isinstance(wanted_games, list) and isinstance(got_games, list)
    if len(wanted_games) != len(got_games):
        problems.append(f"games: expected {len(wanted_games)}, got {len(got_games)}")
    for i, (wanted, got) in enumerate(zip(wanted_games, got_games, strict=False)):
        if not isinstance(wanted, dict) or set(wanted) - GAME_EXPECT_KEYS:
            raise RecordError("each game's expect is an object with known keys", key="expect")
        problems += _check_game(got, result.games[i], wanted, f"games[{i}].")
    return problems


def _check_refusal(record: Mapping[str, object], wanted: Mapping[str, Any]) -> list[str]:
    """A match vector whose record must be refused: the ``RecordError``'s ``key`` and ``code``
    (each checked when given)."""
    try:
        replay_match(record)
    except RecordError as exc:
        return _differences({"key": exc.key, "code": exc.code}, wanted, "error")
    return [f"error: expected {dict(wanted)!r}, the record replayed"]


def _check_game(
    output: Mapping[str, Any], result: Replay, expect: Mapping[str, Any], where: str
) -> list[str]:
    """The mismatches between one game's replay output and what a vector expects of it."""
    problems: list[str] = []
    for part in ("moves", "exchange"):
        wanted = expect.get(part)
        if wanted is None:
            continue
        got = output.get(part, [])
        assert isinstance(got, list)
        for item in wanted:
            i = item["i"]
            if not 0 <= i < len(got):
                problems.append(f"{where}{part}[{i}]: no such move")
                continue
            problems += _differences(got[i], item, f"{where}{part}[{i}]")
    if "finished" in expect and output["finished"] != expect["finished"]:
        problems.append(
            f"{where}finished: expected {expect['finished']!r}, got {output['finished']!r}"
        )
    if "placings" in expect:
        got_p = output["placings"]
        want_p = expect["placings"]
        assert isinstance(got_p, list)
        if not isinstance(want_p, list) or len(got_p) != len(want_p):
            problems.append(f"{where}placings: expected {want_p!r}, got {got_p!r}")
        else:
            for i, (g, w) in enumerate(zip(got_p, want_p, strict=True)):
                problems += _differences(g, w, f"{where}placings[{i}]")
    for part in ("match", "result"):
        if part in expect:
            got_part = output.get(part)
            if not isinstance(got_part, dict) or not isinstance(expect[part], dict):
                if got_part == expect[part]:
                    continue  # both null: a game not over has no result yet
                problems.append(f"{where}{part}: expected {expect[part]!r}, got {got_part!r}")
            else:
                problems += _differences(got_part, expect[part], f"{where}{part}")
    if "observe" in expect:
        view = result.family.observe(result.state, None)
        problems += _differences(view, expect["observe"], f"{where}observe")
    return problems


def _differences(got: Mapping[str, Any], wanted: Mapping[str, Any], where: str) -> list[str]:
    """Each key ``wanted`` gives whose value ``got`` does not have."""
    return [
        f"{where}.{key}: expected {value!r}, got {got.get(key)!r}"
        for key, value in wanted.items()
        if got.get(key) != value
    ]


def load_vectors(directory: str | Path) -> list[tuple[Path, dict[str, object]]]:
    """Every ``*.json`` vector under ``directory``, sorted by path."""
    out: list[tuple[Path, dict[str, object]]] = []
    for path in sorted(Path(directory).rglob("*.json")):
        out.append((path, json.loads(path.read_text(encoding="utf-8"))))
    return out


# Beside the package's __init__.py, which is always the source file: a compiled record module
# lives in the build directory and has no __file__ while it initialises.
CONFORMANCE_DIR: Final = Path(str(resources.files(__name__.rpartition(".")[0]) / "conformance"))


__all__ = [
    "CONFORMANCE_DIR",
    "FORMAT",
    "EngineError",
    "GameRecord",
    "MatchReplay",
    "Replay",
    "Verdict",
    "check_vector",
    "export_match_record",
    "export_record",
    "load_match_record",
    "load_record",
    "load_vectors",
    "replay",
    "replay_any",
    "replay_match",
]
