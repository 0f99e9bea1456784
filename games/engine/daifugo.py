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
from .cards import CardSet, card_names, parse_card, parse_cards, parse_joker_targets
from .core import PHASE_EXCHANGE, PHASE_OVER, Move, Setup, State, new_game
from .deal import Deal, deal
from .errors import InvalidNotation, RecordError
from .events import Event
from .family import FEWER, Decision, Metric, SeatResult, form_error, read_move_object, register
from .rules import PRESETS, RuleSet, ruleset_from_record

SETUP_KEYS: Final = frozenset(
    {"seats", "leader", "hands", "counts", "blind", "titles", "exchange", "moves"}
)
MOVE_KEYS: Final = frozenset(
    {"seat", "play", "pass", "give", "misplay", "as", "declare", "choice", "respond"}
)


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
        """The record's action lists in the order they are played: ``exchange`` (when the record
        has one), then ``moves``; each gets its verdict list in the replay output."""
        if self.exchange:
            return (("exchange", self.exchange), ("moves", self.moves))
        return (("moves", self.moves),)


def _int(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(
            f"expected an integer in {low}..{high}, got {value!r}",
            key=key,
            message_ja=f"{key} は {low}〜{high} の整数です",
        )
    return value


def _cards(value: object, key: str) -> CardSet:
    # Card lists are JSON lists; a device may also send one string of space-separated cards.
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        name = key.rsplit(".", 1)[-1]
        raise RecordError(
            f"'{name}' must be a list of cards",
            key=key,
            message_ja=f"'{name}' はカードのリストです",
        )
    for i, item in enumerate(value):
        try:
            parse_card(item)
        except InvalidNotation as exc:
            raise RecordError(
                str(exc), key=f"{key}[{i}]", code="unknown_card", message_ja="不明なカードです"
            ) from None
    try:
        return parse_cards(value)
    except InvalidNotation as exc:
        raise RecordError(
            str(exc), key=key, code="unknown_card", message_ja="同じカードが二度あります"
        ) from None


def _as_cards(value: object, key: str) -> CardSet:
    """What the jokers stand for: ``{"JK": target or [targets]}`` (a bare target or list is
    accepted): a number card, or ``-S`` … / ``+S`` … for a joker below the 3 / above the 2 of
    stairs (``joker_beyond_ends``)."""
    if isinstance(value, dict):
        if set(value) - {"JK"}:
            unknown = sorted(map(str, set(value) - {"JK"}))[0]
            raise RecordError(
                f"unknown key {unknown!r}", key=key, message_ja=f"不明なキー {unknown!r}"
            )
        value = value.get("JK")
        key = f"{key}.JK"
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise RecordError(
            "'as' must be a list of cards", key=key, message_ja="'as' はカードのリストです"
        )
    for i, item in enumerate(value):
        try:
            parse_joker_targets([item])
        except InvalidNotation as exc:
            raise RecordError(
                str(exc), key=f"{key}[{i}]", code="unknown_card", message_ja="不明なカードです"
            ) from None
    try:
        mask = parse_joker_targets(value)
    except InvalidNotation as exc:
        raise RecordError(
            str(exc), key=key, code="unknown_card", message_ja="同じカードが二度あります"
        ) from None
    if not 1 <= mask.bit_count() <= 2:
        raise RecordError(
            "one or two cards", key=key, message_ja="ジョーカーが表すカードは 1〜2 枚です"
        )
    return mask


def move_from_json(value: object, key: str, seats: int) -> Move:
    """A :class:`Move` from a record-format move object — a play, a pass, an exchange
    ``give`` or a recorded ``misplay`` (プンリー) — checked for form only (legality is
    :func:`~games.engine.core.apply`'s).

    Raises :class:`RecordError` (``key`` names the part at fault, English and Japanese).
    A play with ``respond: true`` is an out-of-turn action.
    """
    value, seat, kind = read_move_object(
        value, key, seats, MOVE_KEYS, ("play", "pass", "give", "misplay")
    )
    respond = value.get("respond", False)
    if not isinstance(respond, bool):
        raise form_error(
            "'respond' must be true or false", "'respond' は true か false です", f"{key}.respond"
        )
    if kind == "give":
        if set(value) - {"seat", "give"}:
            raise form_error(
                "a give is {seat, give: [cards]}", "交換は {seat, give: [...]} です", key
            )
        return Move.give(seat, _cards(value["give"], f"{key}.give"))
    if kind == "misplay":
        if set(value) - {"seat", "misplay"}:
            raise form_error(
                "a misplay is {seat, misplay: [cards]}",
                "プンリーは {seat, misplay: [...]} です",
                key,
            )
        cards = _cards(value["misplay"], f"{key}.misplay")
        if not cards:
            raise RecordError(
                "a misplay names the cards exposed",
                key=f"{key}.misplay",
                code="invalid_combination",
                message_ja="誤って出したカードを指定してください",
            )
        return Move.misplayed(seat, cards)
    if kind == "pass":
        if value["pass"] is not True:
            raise form_error("pass must be true when present", "pass は true です", f"{key}.pass")
        if respond:
            raise form_error(
                "a pass is never out of turn", "パスは手番外（respond）にはできません", key
            )
        if set(value) - {"seat", "pass", "respond"}:
            raise form_error("a pass is {seat, pass: true}", "パスは {seat, pass: true} です", key)
        return Move(seat, is_pass=True)
    cards = _cards(value["play"], f"{key}.play")
    if not cards:
        raise RecordError(
            "a play needs cards",
            key=f"{key}.play",
            code="invalid_combination",
            message_ja="出すカードを選んでください",
        )
    as_cards = _as_cards(value["as"], f"{key}.as") if "as" in value else 0
    declare = value.get("declare")
    if declare is not None and not isinstance(declare, str):
        raise form_error("'declare' must be a string", "'declare' は文字列です", f"{key}.declare")
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
        give = move_from_json(item, f"exchange[{i}]", seats)
        if not give.exchange:
            raise RecordError("an exchange item is {seat, give}", key=f"exchange[{i}]")
        exchange.append(give)
    if exchange and titles is None:
        raise RecordError("an exchange needs the previous titles", key="exchange")
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("expected a list", key="moves")
    moves = tuple(move_from_json(m, f"moves[{i}]", seats) for i, m in enumerate(raw_moves))
    for i, move in enumerate(moves):
        if move.exchange:
            raise RecordError("gives belong in exchange", key=f"moves[{i}].give")
    record = DaifugoRecord(rules, hands, counts, blind, titles, leader, tuple(exchange), moves)
    record.initial_state()  # validates the set-up
    return record


def move_to_json(move: Move) -> dict[str, object]:
    """A record entry for a move (a ``moves`` item, or an ``exchange`` item for a give)."""
    if move.exchange:
        return {"seat": move.seat, "give": card_names(move.cards)}
    if move.misplay:
        return {"seat": move.seat, "misplay": card_names(move.cards)}
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
        detail: dict[str, object] = {
            "title": p.title,
            "foul": p.foul,
            "miyako_ochi": p.miyako_ochi,
        }
        if p.stalemate:
            detail["stalemate"] = True
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
        return move_from_json(value, key, seats)

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
