"""The 大富豪 family (JDF, gekijo, local rules, UECda): its rules core behind the family interface.

The rules live in :mod:`.core` (states, moves, the ordered rule steps) and :mod:`.rules`
(switches and presets); this module is what the rest of Kakumei sees of them —
:data:`DAIFUGO`, a :class:`~games.engine.family.Family` — plus the family's record keys
(``hands``, ``counts``, ``blind``, ``titles``, ``leader``, ``exchange``, ``moves``; see
``record-format.md``).

The exchange (カード交換) is this family's pending decision: while it lasts,
:meth:`DaifugoFamily.pending` lists each seat that still owes cards, how many and to whom.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from . import core, snapshot
from .cards import CardSet, card_names, parse_card, parse_cards
from .core import PHASE_EXCHANGE, PHASE_OVER, Move, Setup, State, new_game
from .deal import Deal, deal
from .errors import InvalidNotation, RecordError
from .events import Event
from .family import FEWER, Decision, Metric, SeatResult, register
from .rules import PRESETS, RuleSet, ruleset_from_record

SETUP_KEYS: Final = frozenset(
    {"seats", "leader", "hands", "counts", "blind", "titles", "exchange", "moves"}
)
MOVE_KEYS: Final = frozenset({"seat", "play", "pass", "as", "declare", "choice", "respond"})
EXCHANGE_KEYS: Final = frozenset({"seat", "give"})


@dataclass(frozen=True, slots=True)
class DaifugoRecord:
    """A validated 大富豪 record.  ``exchange`` and ``moves`` are :class:`Move` values."""

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

    @property
    def actions(self) -> tuple[Move, ...]:
        """Exchange gives, then moves: everything a replay applies, in order."""
        return (*self.exchange, *self.moves)

    def sections(self) -> tuple[tuple[str, tuple[Move, ...]], ...]:
        """The replay output's verdict lists: ``exchange`` (when the record has one), ``moves``."""
        if self.exchange:
            return (("moves", self.moves), ("exchange", self.exchange))
        return (("moves", self.moves),)


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
    if not isinstance(value, dict):
        raise RecordError('expected {"JK": card or [cards]}', key=key)
    if set(value) - {"JK"}:
        raise RecordError(f"unknown key {sorted(set(value) - {'JK'})[0]!r}", key=key)
    target = value.get("JK")
    if isinstance(target, str):
        target = [target]
    mask = _cards(target, f"{key}.JK")
    if not 1 <= mask.bit_count() <= 2:
        raise RecordError("one or two cards", key=f"{key}.JK")
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


def load_setup(obj: Mapping[str, object], rules: RuleSet) -> DaifugoRecord:
    """The 大富豪 part of a record (every key but ``format`` and ``rules``), validated.

    Raises :class:`RecordError` naming the key (or card) at fault.  The set-up (hands
    disjoint, counts, titles …) is validated too; moves are only checked for form — their
    legality is what a replay judges.
    """
    if obj.get("seats", rules.seats) != rules.seats or isinstance(obj.get("seats"), bool):
        raise RecordError(f"{rules.key} is played by {rules.seats} seats", key="seats")
    seats = rules.seats
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
    record = DaifugoRecord(rules, hands, counts, blind, titles, leader, tuple(exchange), moves)
    record.initial_state()  # validates the set-up
    return record


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


def export_setup(start: State | Setup, actions: Iterable[Move]) -> dict[str, object]:
    """The 大富豪 keys of a record for a game started at ``start`` (its initial state or
    set-up) followed by ``actions`` (exchange gives and moves, in order)."""
    setup = start.setup if isinstance(start, State) else start
    record: dict[str, object] = {
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


def pending(state: State) -> tuple[Decision, ...]:
    """The exchange gives still owed and allowed now (``lower_first``: the lower titles first)."""
    if state.phase != PHASE_EXCHANGE:
        return ()
    setup = state.setup
    wait = setup.rules.exchange_order == "lower_first" and any(
        g == -1 and setup.exchange_strongest[s] for s, g in enumerate(state.gives)
    )
    return tuple(
        Decision(seat, "give", setup.exchange_count[seat], setup.exchange_to[seat])
        for seat, given in enumerate(state.gives)
        if given == -1 and not (wait and not setup.exchange_strongest[seat])
    )


def to_move(state: State) -> tuple[int, ...]:
    """Every seat that may act now: the exchange's givers, or the seat in turn plus the
    seats with an out-of-turn action open (the joker answer, イッツー before the first play)."""
    if state.phase == PHASE_OVER:
        return ()
    if state.phase == PHASE_EXCHANGE:
        return tuple(d.seat for d in pending(state))
    seats = {state.turn}
    seats.update(s for s in range(state.seats) if state.respond >> s & 1)
    if state.start and state.rules.instant_win:
        seats.update(m.seat for m in core.legal_moves(state) if m.declare == core.INSTANT_WIN)
    return tuple(sorted(seats))


def outcome(state: State) -> tuple[SeatResult, ...] | None:
    """The family-neutral results of a finished game (``None`` before its end)."""
    if state.phase != PHASE_OVER:
        return None
    rules = state.rules
    out: list[SeatResult] = []
    for p in core.placings(state):
        assert p.place is not None  # every place is definitive once the game is over
        detail = {"title": p.title, "foul": p.foul, "miyako_ochi": p.miyako_ochi}
        out.append(SeatResult(p.seat, p.place, None, rules.score(p.place), detail))
    return tuple(sorted(out, key=lambda r: r.place))


class DaifugoFamily:
    """大富豪 behind the :class:`~games.engine.family.Family` interface."""

    name: Final = "daifugo"
    presets: Final[Mapping[str, RuleSet]] = PRESETS
    record_keys: Final = SETUP_KEYS
    metrics: Final = (
        Metric("daifugo", "title", "daifugo"),
        Metric("fugo", "title", "fugo"),
        Metric("heimin", "title", "heimin"),
        Metric("hinmin", "title", "hinmin"),
        Metric("daihinmin", "title", "daihinmin", FEWER),
        Metric("fouls", "foul", True, FEWER),
        Metric("miyako_ochi", "miyako_ochi", True, FEWER),  # 都落ち
    )
    """Title counts (大富豪 … 大貧民), fouls (反則あがり) and 都落ち, as standings count them."""

    def ruleset(self, value: object) -> RuleSet:
        return ruleset_from_record(value)

    def new_game(self, rules: RuleSet, **setup: object) -> State:
        hands = setup.pop("hands")
        return new_game(rules, hands, **setup)  # type: ignore[arg-type]

    def legal_moves(self, state: State) -> Iterator[Move]:
        return core.legal_moves(state)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        return core.apply(state, move)

    def pending(self, state: State) -> tuple[Decision, ...]:
        return pending(state)

    def to_move(self, state: State) -> tuple[int, ...]:
        return to_move(state)

    def is_over(self, state: State) -> bool:
        return state.phase == PHASE_OVER

    def observe(self, state: State, viewer: int | None = None) -> dict[str, object]:
        return core.observe(state, viewer)

    def outcome(self, state: State) -> tuple[SeatResult, ...] | None:
        return outcome(state)

    def placings(self, state: State) -> list[dict[str, object]]:
        return [p.to_dict() for p in core.placings(state)]

    def load_record(self, obj: Mapping[str, object], rules: RuleSet) -> DaifugoRecord:
        return load_setup(obj, rules)

    def export_record(self, start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
        return export_setup(start, actions)

    def move_from_json(self, value: object, key: str, seats: int) -> Move:
        return _move(value, key, seats)

    def move_to_json(self, move: Move) -> dict[str, object]:
        return move_to_json(move)

    def deal(self, seed: bytes | str, rules: RuleSet) -> Deal:
        return deal(seed, rules)

    def snapshot(self, state: State) -> dict[str, object]:
        return snapshot.snapshot(state)

    def restore(self, setup: Setup, data: Mapping[str, object]) -> State:
        return snapshot.restore(setup, data)


DAIFUGO: Final = DaifugoFamily()
register(DAIFUGO)
