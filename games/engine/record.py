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
from pathlib import Path
from typing import Final

from .cards import CardSet, card_names, parse_card, parse_cards, parse_joker_targets
from .core import Move, Setup, State, apply, new_game, observe, placings
from .errors import EngineError, IllegalMove, InvalidNotation, RecordError, RulesError
from .events import Event
from .rules import RuleSet, ruleset_from_record

FORMAT: Final = "kakumei-record/1"
CONFORMANCE_FORMAT: Final = "kakumei-conformance/1"
RECORD_KEYS: Final = frozenset(
    {
        "format",
        "rules",
        "seats",
        "leader",
        "hands",
        "counts",
        "blind",
        "titles",
        "exchange",
        "moves",
    }
)
MOVE_KEYS: Final = frozenset({"seat", "play", "pass", "as", "declare", "choice", "respond"})
EXCHANGE_KEYS: Final = frozenset({"seat", "give"})


@dataclass(frozen=True, slots=True)
class Record:
    """A validated record.  ``exchange`` and ``moves`` are :class:`Move` values."""

    rules: RuleSet
    hands: tuple[CardSet | None, ...]
    counts: tuple[int, ...] | None = None
    blind: CardSet | None = None
    titles: tuple[str, ...] | None = None
    leader: int | None = None
    exchange: tuple[Move, ...] = ()
    moves: tuple[Move, ...] = ()

    def initial_state(self) -> State:
        """The state before the exchange and the first move; raises :class:`RecordError`."""
        return new_game(
            self.rules,
            self.hands,
            blind=self.blind,
            titles=self.titles,
            leader=self.leader,
            counts=self.counts,
        )


def _int(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"expected an integer in {low}..{high}, got {value!r}", key=key)
    return value


def _cards(value: object, key: str) -> CardSet:
    if not isinstance(value, list):
        raise RecordError(f"expected a list of cards, got {value!r}", key=key)
    for i, item in enumerate(value):
        try:
            parse_card(item)
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"{key}[{i}]", code="unknown_card") from None
    try:
        return parse_cards(value)
    except InvalidNotation as exc:
        raise RecordError(str(exc), key=key, code="unknown_card") from None


def _as_cards(value: object, key: str) -> CardSet:
    """``{"JK": target or [targets]}``: a number card, or ``-S`` … / ``+S`` … for a joker
    below the 3 / above the 2 of stairs (joker_beyond_ends)."""
    if not isinstance(value, dict):
        raise RecordError('expected {"JK": card or [cards]}', key=key)
    if set(value) - {"JK"}:
        raise RecordError(f"unknown key {sorted(set(value) - {'JK'})[0]!r}", key=key)
    target = value.get("JK")
    if isinstance(target, str):
        target = [target]
    key = f"{key}.JK"
    if not isinstance(target, list):
        raise RecordError(f"expected a list of cards, got {target!r}", key=key)
    for i, item in enumerate(target):
        try:
            parse_joker_targets([item])
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"{key}[{i}]", code="unknown_card") from None
    try:
        mask = parse_joker_targets(target)
    except InvalidNotation as exc:
        raise RecordError(str(exc), key=key, code="unknown_card") from None
    if not 1 <= mask.bit_count() <= 2:
        raise RecordError("one or two cards", key=key)
    return mask


def _move(value: object, key: str, seats: int) -> Move:
    if not isinstance(value, dict):
        raise RecordError(f"expected an object, got {value!r}", key=key)
    unknown = set(value) - MOVE_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(map(str, unknown))[0]!r}", key=key)
    seat = _int(value.get("seat"), f"{key}.seat", 0, seats - 1)
    has_play = "play" in value
    respond = value.get("respond", False)
    if not isinstance(respond, bool):
        raise RecordError("respond must be true or false", key=f"{key}.respond")
    if "pass" in value:
        if value["pass"] is not True:
            raise RecordError("pass must be true when present", key=f"{key}.pass")
        if has_play or "as" in value or "declare" in value:
            raise RecordError("a pass has no play, as or declare", key=key)
        if "choice" in value:
            raise RecordError("a pass has no choice", key=key)
        if respond:
            raise RecordError("a pass is never out of turn", key=key)
        return Move(seat, is_pass=True)
    if not has_play:
        raise RecordError("a move needs play or pass", key=key)
    cards = _cards(value["play"], f"{key}.play")
    as_cards = _as_cards(value["as"], f"{key}.as") if "as" in value else 0
    declare = value.get("declare")
    if declare is not None and not isinstance(declare, str):
        raise RecordError("declare must be a string", key=f"{key}.declare")
    choice = value.get("choice")
    if choice is not None and not isinstance(choice, str):
        choice = json.dumps(choice, sort_keys=True)
    return Move(seat, cards, False, as_cards, declare, choice, False, respond)


def load_record(data: str | bytes | Mapping[str, object]) -> Record:
    """Parse and validate a record (JSON text or a decoded object).

    Raises :class:`RecordError` naming the key (or card) at fault.  The set-up
    (hands disjoint, counts, titles …) is validated too; moves are only checked
    for form — their legality is what :func:`replay` judges.
    """
    if isinstance(data, str | bytes):
        try:
            obj: object = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RecordError("a record is a JSON object")
    unknown = set(obj) - RECORD_KEYS
    if unknown:
        raise RecordError("unknown key", key=str(sorted(map(str, unknown))[0]))
    if obj.get("format") != FORMAT:
        raise RecordError(f"expected {FORMAT!r}, got {obj.get('format')!r}", key="format")
    try:
        rules = ruleset_from_record(obj.get("rules", "jdf"))
    except RulesError as exc:
        raise RecordError(str(exc), key="rules", code=exc.code) from None
    seats = obj.get("seats", rules.seats)
    if seats != rules.seats or isinstance(seats, bool):
        raise RecordError(f"{rules.key} is played by {rules.seats} seats", key="seats")
    raw_hands = obj.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != seats:
        raise RecordError(f"expected a list of {seats} hands", key="hands")
    hands = tuple(None if h is None else _cards(h, f"hands[{i}]") for i, h in enumerate(raw_hands))
    counts: tuple[int, ...] | None = None
    if obj.get("counts") is not None:
        raw_counts = obj["counts"]
        if not isinstance(raw_counts, list) or len(raw_counts) != seats:
            raise RecordError(f"expected a list of {seats} counts", key="counts")
        counts = tuple(_int(c, f"counts[{i}]", 0, 54) for i, c in enumerate(raw_counts))
    blind = None if obj.get("blind") is None else _cards(obj["blind"], "blind")
    titles: tuple[str, ...] | None = None
    if obj.get("titles") is not None:
        raw_titles = obj["titles"]
        if not isinstance(raw_titles, list) or not all(isinstance(t, str) for t in raw_titles):
            raise RecordError("expected a list of titles", key="titles")
        titles = tuple(raw_titles)
    leader = None if obj.get("leader") is None else _int(obj["leader"], "leader", 0, seats - 1)
    exchange: list[Move] = []
    raw_exchange = obj.get("exchange", [])
    if not isinstance(raw_exchange, list):
        raise RecordError("expected a list", key="exchange")
    for i, item in enumerate(raw_exchange):
        key = f"exchange[{i}]"
        if not isinstance(item, dict):
            raise RecordError("expected an object", key=key)
        bad = set(item) - EXCHANGE_KEYS
        if bad:
            raise RecordError(f"unknown key {sorted(map(str, bad))[0]!r}", key=key)
        seat = _int(item.get("seat"), f"{key}.seat", 0, seats - 1)
        exchange.append(Move(seat, _cards(item.get("give"), f"{key}.give"), exchange=True))
    if exchange and titles is None:
        raise RecordError("an exchange needs the previous titles", key="exchange")
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("expected a list", key="moves")
    moves = tuple(_move(m, f"moves[{i}]", seats) for i, m in enumerate(raw_moves))
    record = Record(rules, hands, counts, blind, titles, leader, tuple(exchange), moves)
    record.initial_state()  # validates the set-up
    return record


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
    """The result of :func:`replay`: verdicts, and the state after the last legal move."""

    record: Record
    state: State
    exchange: list[Verdict] = field(default_factory=list)
    moves: list[Verdict] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state.is_over

    def to_dict(self) -> dict[str, object]:
        """The replay output of record-format.md (plus ``exchange`` when the record has one)."""
        out: dict[str, object] = {"moves": [v.to_dict() for v in self.moves]}
        if self.record.exchange:
            out["exchange"] = [v.to_dict() for v in self.exchange]
        out["finished"] = self.finished
        out["placings"] = [p.to_dict() for p in placings(self.state)]
        return out


def replay(record: Record | str | bytes | Mapping[str, object]) -> Replay:
    """Judge every exchange give and move of a record in order (illegal ones are skipped)."""
    if not isinstance(record, Record):
        record = load_record(record)
    state = record.initial_state()
    result = Replay(record, state)
    for i, give in enumerate(record.exchange):
        state = _judge(state, give, i, result.exchange)
    for i, move in enumerate(record.moves):
        state = _judge(state, move, i, result.moves)
    result.state = state
    return result


def _judge(state: State, move: Move, index: int, out: list[Verdict]) -> State:
    try:
        new, events = apply(state, move)
    except IllegalMove as exc:
        out.append(Verdict(index, False, error=exc))
        return state
    out.append(Verdict(index, True, events))
    return new


def move_to_json(move: Move) -> dict[str, object]:
    """A record entry for a move (a ``moves`` item, or an ``exchange`` item for a give)."""
    if move.exchange:
        return {"seat": move.seat, "give": card_names(move.cards)}
    if move.is_pass:
        return {"seat": move.seat, "pass": True}
    out: dict[str, object] = {"seat": move.seat, "play": card_names(move.cards)}
    if move.as_cards:
        names = card_names(move.as_cards)
        out["as"] = {"JK": names[0] if len(names) == 1 else names}
    if move.declare is not None:
        out["declare"] = move.declare
    if move.choice is not None:
        out["choice"] = move.choice
    if move.respond:
        out["respond"] = True
    return out


def export_record(start: State | Setup, actions: Iterable[Move]) -> dict[str, object]:
    """A ``kakumei-record/1`` object for a game started at ``start`` (its initial state
    or set-up) followed by ``actions`` (exchange gives and moves, in order)."""
    setup = start.setup if isinstance(start, State) else start
    record: dict[str, object] = {
        "format": FORMAT,
        "rules": setup.rules.to_record(),
        "seats": len(setup.counts),
        "hands": [None if h is None else card_names(h) for h in setup.hands],
    }
    if any(h is None for h in setup.hands):
        record["counts"] = list(setup.counts)
    if setup.blind is not None:
        record["blind"] = card_names(setup.blind)
    if setup.titles is not None:
        record["titles"] = list(setup.titles)
    if setup.leader is not None:
        record["leader"] = setup.leader
    gives: list[dict[str, object]] = []
    moves: list[dict[str, object]] = []
    for move in actions:
        (gives if move.exchange else moves).append(move_to_json(move))
    if gives:
        record["exchange"] = gives
    record["moves"] = moves
    return record


# --- conformance vectors ---------------------------------------------------------------

VECTOR_KEYS: Final = frozenset({"format", "name", "reference", "description", "record", "expect"})
EXPECT_KEYS: Final = frozenset({"moves", "exchange", "finished", "placings", "observe"})


def check_vector(vector: Mapping[str, object]) -> list[str]:
    """Run a ``kakumei-conformance/1`` vector through :func:`replay`; the list of mismatches.

    ``expect.moves`` / ``expect.exchange`` list verdicts by ``i``, each checking only
    the keys it gives (``ok``, ``code``, ``events``); ``finished`` and ``placings``
    compare with the replay output (each placing checks the keys it gives);
    ``observe`` compares keys of the public :func:`observe` view of the final state.
    """
    unknown = set(vector) - VECTOR_KEYS
    if unknown or vector.get("format") != CONFORMANCE_FORMAT:
        raise RecordError(
            f"not a {CONFORMANCE_FORMAT} vector (keys: {sorted(map(str, unknown))})", key="format"
        )
    expect = vector.get("expect")
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        raise RecordError("expect must be an object with known keys", key="expect")
    record = vector.get("record")
    if not isinstance(record, dict):
        raise RecordError("expected a record object", key="record")
    result = replay(record)
    output = result.to_dict()
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
                problems.append(f"{part}[{i}]: no such move")
                continue
            for key, value in item.items():
                if got[i].get(key) != value:
                    problems.append(
                        f"{part}[{i}].{key}: expected {value!r}, got {got[i].get(key)!r}"
                    )
    if "finished" in expect and output["finished"] != expect["finished"]:
        problems.append(f"finished: expected {expect['finished']!r}, got {output['finished']!r}")
    if "placings" in expect:
        got_p = output["placings"]
        want_p = expect["placings"]
        assert isinstance(got_p, list)
        if not isinstance(want_p, list) or len(got_p) != len(want_p):
            problems.append(f"placings: expected {want_p!r}, got {got_p!r}")
        else:
            for i, (g, w) in enumerate(zip(got_p, want_p, strict=True)):
                for key, value in w.items():
                    if g.get(key) != value:
                        problems.append(
                            f"placings[{i}].{key}: expected {value!r}, got {g.get(key)!r}"
                        )
    if "observe" in expect:
        view = observe(result.state, None)
        for key, value in expect["observe"].items():
            if view.get(key) != value:
                problems.append(f"observe.{key}: expected {value!r}, got {view.get(key)!r}")
    return problems


def load_vectors(directory: str | Path) -> list[tuple[Path, dict[str, object]]]:
    """Every ``*.json`` vector under ``directory``, sorted by path."""
    out: list[tuple[Path, dict[str, object]]] = []
    for path in sorted(Path(directory).rglob("*.json")):
        out.append((path, json.loads(path.read_text(encoding="utf-8"))))
    return out


CONFORMANCE_DIR: Final = Path(__file__).with_name("conformance")


__all__ = [
    "CONFORMANCE_DIR",
    "FORMAT",
    "EngineError",
    "Record",
    "Replay",
    "Verdict",
    "check_vector",
    "export_record",
    "load_record",
    "load_vectors",
    "move_to_json",
    "replay",
]
