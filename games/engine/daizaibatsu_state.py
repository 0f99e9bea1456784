"""大財閥 states and their parts: moves, events, rule steps still to run, decisions owed,
the set-up, the deal and the pile's renewals, and the small helpers every rule step shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, TypeVar

from .cards import Card
from .daizaibatsu_combos import (
    DECK,
    DECK_SIZE,
    Combo,
    add,
    card_name,
    common,
    from_list,
    holds,
    names,
    parse,
    parse_name,
    sub,
    to_list,
)
from .daizaibatsu_rules import (
    DaizaibatsuRules,
)
from .deal import ALGORITHM, seed_bytes, shuffled
from .errors import IllegalMove, InvalidNotation, RecordError
from .events import Event
from .multideck import EMPTY, Cards

PHASE_PLAY: Final = 0
PHASE_OVER: Final = 1

RENEWAL_ALGORITHM: Final = "kakumei-daizaibatsu-renewal/1"

# Where the most recent played / discarded / destroyed cards lie (what an A takes back from).
ZONE_NONE: Final = 0
ZONE_TABLE: Final = 1
ZONE_FLOWED: Final = 2
ZONE_DISCARDED: Final = 3
ZONE_DESTROYED: Final = 4

# How the last play ends the trick at once.
CUT_NONE: Final = 0
CUT_EIGHT: Final = 1  # 8切り
CUT_SANDSTORM: Final = 2  # 砂嵐
CUT_SPADE_THREE: Final = 3  # スペ3返し

# --- moves ---------------------------------------------------------------------------------

PLAY: Final = "play"
PASS: Final = "pass"
TARGET: Final = "target"
GIVE: Final = "give"
DISCARD: Final = "discard"
DESTROY: Final = "destroy"
TAKE: Final = "take"
DOUBLE_BACK: Final = "double_back"  # 倍返し
ACCEPT: Final = "accept"
DRAW: Final = "draw"
DREW: Final = "drew"
CARD_DECISIONS: Final = {GIVE: GIVE, DISCARD: DISCARD, DESTROY: DESTROY, TAKE: TAKE, DREW: DRAW}
"""A move's action → the decision kind it makes."""


class Move(NamedTuple):
    """A play (``as_``: what each joker stands for), a pass, or a decision: ``target``
    (``target`` = the seat), ``give`` / ``discard`` / ``destroy`` / ``take`` / ``drew``
    (``cards``), ``double_back`` / ``accept``. ``respond``: an out-of-turn play (the 8-cut
    window, 上がり殺し)."""

    seat: int
    action: str = PLAY
    cards: Cards = EMPTY
    as_: tuple[Card, ...] = ()
    target: int = -1
    respond: bool = False

    @staticmethod
    def play(
        seat: int, cards: str | Cards, as_: str | Sequence[Card] = (), respond: bool = False
    ) -> Move:
        """``Move.play(0, "4D 5D JK 7D", as_="6D")``."""
        held = parse(cards) if isinstance(cards, str) else cards
        named = tuple(to_list(parse(as_))) if isinstance(as_, str) else tuple(as_)
        return Move(seat, PLAY, held, tuple(sorted(named)), -1, respond)

    @staticmethod
    def pass_turn(seat: int) -> Move:
        return Move(seat, PASS)

    @staticmethod
    def choose_target(seat: int, target: int) -> Move:
        return Move(seat, TARGET, target=target)

    @staticmethod
    def cards_for(seat: int, action: str, cards: str | Cards) -> Move:
        """A card decision: ``give``, ``discard``, ``destroy``, ``take`` or ``drew``."""
        return Move(seat, action, parse(cards) if isinstance(cards, str) else cards)

    @staticmethod
    def answer(seat: int, double_back: bool) -> Move:
        """The target of a 2 or 9 answers: 倍返し (discard a joker) or accept."""
        return Move(seat, DOUBLE_BACK if double_back else ACCEPT)


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DaizaibatsuEvent(Event):
    """An event; ``what`` is its kind (the README lists them), the other fields those the kind
    uses. ``gave`` carries the cards given: events are the full log, public feeds serialise
    :func:`observe`."""

    what: str
    seat: int = -1
    cards: Cards = EMPTY
    to: int = -1
    count: int = 0
    seats: tuple[int, ...] = ()
    on: int = -1
    combination: str = ""
    as_: tuple[Card, ...] = ()
    place: int = 0
    suits: str = ""
    direction: int = 0
    renewal: int = 0

    @property
    def kind(self) -> str:
        return self.what

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.what}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = names(self.cards)
        if self.as_:
            out["as"] = [card_name(c) for c in self.as_]
        if self.combination:
            out["combination"] = self.combination
        if self.to >= 0:
            out["to"] = self.to
        if self.count:
            out["count"] = self.count
        if self.seats:
            out["seats"] = list(self.seats)
        if self.on >= 0:
            out["on"] = bool(self.on)
        if self.place:
            out["place"] = self.place
        if self.suits:
            out["suits"] = self.suits.split()
        if self.direction:
            out["direction"] = self.direction
        if self.renewal:
            out["renewal"] = self.renewal
        return out


def event(what: str, **values: object) -> DaizaibatsuEvent:
    return DaizaibatsuEvent(what, **values)  # type: ignore[arg-type]


# --- set-up and state ----------------------------------------------------------------------


class Step(NamedTuple):
    """One rule step still to run: ``name`` in :data:`STEPS`, the seat it acts for, ``n`` (how
    many cards of the rank, or an amount) and ``arg`` (the step's own: a target, a flag)."""

    name: str
    seat: int
    n: int = 0
    arg: int = 0


class Owed(NamedTuple):
    """A decision owed now: ``kind`` (``target``, ``give``, ``discard``, ``destroy``, ``take``,
    ``double_back``, ``draw``), ``size`` cards, ``to`` the seat concerned, ``amount`` the
    cards a target draws, ``source`` the player of the 2 or 9, ``group`` 1 for the Q's
    simultaneous gives."""

    seat: int
    kind: str
    size: int = 0
    to: int = -1
    amount: int = 0
    source: int = -1
    group: int = 0


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game starts from: the rules, the dealt hands (``None``: unknown), the dealt
    counts, the pile (top first; ``None``: unknown) and its size, the deal seed, the leader
    the record named."""

    rules: DaizaibatsuRules
    hands: tuple[Cards | None, ...]
    counts: tuple[int, ...]
    pile: tuple[Card, ...] | None
    pile_count: int
    seed: bytes | None
    leader: int | None


class State(NamedTuple):
    """A 大財閥 game's state: an immutable value (see the README for each field's meaning); a
    named tuple, as every step makes a new one."""

    setup: Setup
    phase: int
    turn: int
    hands: tuple[Cards | None, ...]
    counts: tuple[int, ...]
    pile: tuple[Card, ...] | None
    pile_count: int
    flowed: Cards = EMPTY
    discarded: Cards = EMPTY
    destroyed: Cards = EMPTY
    table: Combo | None = None
    table_cards: Cards = EMPTY
    last: int = -1
    passed: int = 0
    out: tuple[int, ...] = ()
    direction: int = 1
    revolution: bool = False
    back: bool = False
    lock: int = -1
    rev_chain: int = 0
    rev_last: int = -1
    opened: int = 0
    renewals: int = 0
    forced_end: bool = False
    forced_by: int = -1
    queue: tuple[Step, ...] = ()
    owed: tuple[Owed, ...] = ()
    given: tuple[Cards, ...] = ()
    skip: int = 0
    cut: int = CUT_NONE
    eight_from: int = -1
    kill_from: int = -1
    kill_cards: Cards = EMPTY
    recent: Cards = EMPTY
    recent_zone: int = ZONE_NONE
    take_pool: Cards = EMPTY
    take_zone: int = ZONE_NONE

    @property
    def rules(self) -> DaizaibatsuRules:
        return self.setup.rules

    @property
    def seats(self) -> int:
        return len(self.counts)

    @property
    def reversed_order(self) -> bool:
        """The effective order: revolution XOR 11-back."""
        return self.revolution != self.back

    def in_play(self, seat: int) -> bool:
        return seat not in self.out


def illegal(code: str, en: str, ja: str, rule: str) -> IllegalMove:
    return IllegalMove(code, en, ja, f"Daizaibatsu {rule}")


# --- new game and deal ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DaizaibatsuDeal:
    """The dealt hands and the pile (top first)."""

    hands: tuple[Cards, ...]
    pile: tuple[Card, ...]

    def to_record(self) -> dict[str, object]:
        return {
            "hands": [names(h) for h in self.hands],
            "pile": [card_name(c) for c in self.pile],
        }


def deal(seed: bytes | str | int, rules: DaizaibatsuRules) -> DaizaibatsuDeal:
    """The deal of ``seed``: the 108 cards in card order (each number card twice, then the four
    jokers as card 52) shuffled by Fisher–Yates on the ``kakumei-deal/1`` SHA-256 stream (the
    one of :mod:`~games.engine.deal`); card ``i`` of the first ``seats × hand_size`` goes to
    seat ``i % seats``, the rest is the pile, top first."""
    order = shuffled(seed_bytes(seed), ALGORITHM, to_list(DECK))
    dealt = rules.seats * rules.hand_size
    hands = tuple(from_list(order[s : dealt : rules.seats]) for s in range(rules.seats))
    return DaizaibatsuDeal(hands, tuple(order[dealt:]))


def renewal_order(seed: bytes | None, renewal: int, cards: Cards) -> tuple[Card, ...]:
    """The new pile (top first) from the flowed, discarded and destroyed ``cards`` at renewal
    number ``renewal`` (1, 2 …): in card order, shuffled on the ``kakumei-daizaibatsu-renewal/1``
    stream of ``seed + b"\\x00" + str(renewal)``; without a seed, in card order."""
    items = to_list(cards)
    if seed is None:
        return tuple(items)
    return shuffled(seed + b"\x00" + str(renewal).encode("ascii"), RENEWAL_ALGORITHM, items)


def _hand(value: object, seat: int) -> Cards | None:
    if value is None or isinstance(value, Cards):
        return value
    if isinstance(value, str | list):
        try:
            return parse(value)
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"hands[{seat}]", code="unknown_card") from None
    raise RecordError("a hand is a list of cards or null", key=f"hands[{seat}]")


PILE_NOT_GIVEN: Final = "deal"
"""``new_game``'s ``pile`` when the caller gives none (``None`` means an unknown pile)."""


def new_game(
    rules: DaizaibatsuRules,
    hands: Sequence[Cards | str | list[str] | None] | None = None,
    *,
    counts: Sequence[int] | None = None,
    pile: Sequence[Card | str] | str | None = PILE_NOT_GIVEN,
    seed: bytes | str | int | None = None,
    leader: int | None = None,
) -> State:
    """A game. ``seed`` deals hands and pile (:func:`deal`) where they are not given; else
    ``hands`` (``None`` entries: unknown, with ``counts``) and ``pile`` (top first; ``None``:
    unknown, open-table mode; left out: the cards not in the hands, in card order, when every
    hand is known). Raises :class:`RulesError` while a switch without default is unset."""
    rules.require_complete()
    seats = rules.seats
    raw_seed = None if seed is None else seed_bytes(seed)
    dealt = None if seed is None else deal(seed, rules)
    if hands is None:
        if dealt is None:
            raise RecordError("give the hands or a seed", key="hands")
        hands = list(dealt.hands)
    if len(hands) != seats:
        raise RecordError(f"expected {seats} hands", key="hands")
    known = tuple(_hand(h, i) for i, h in enumerate(hands))
    if counts is not None and len(counts) != seats:
        raise RecordError(f"expected {seats} counts", key="counts")
    sizes: list[int] = []
    for seat, hand in enumerate(known):
        if hand is None:
            if counts is None or type(counts[seat]) is not int or counts[seat] < 0:
                raise RecordError("an unknown hand needs its count", key=f"counts[{seat}]")
            sizes.append(counts[seat])
        else:
            if counts is not None and counts[seat] != len(hand):
                raise RecordError("count differs from the hand", key=f"counts[{seat}]")
            sizes.append(len(hand))
    total = EMPTY
    for seat, hand in enumerate(known):
        if hand is not None:
            try:
                total = add(total, hand)
            except ValueError:
                raise RecordError(
                    "the hands hold more cards than two packs and four jokers",
                    key=f"hands[{seat}]",
                ) from None
    pile_cards: tuple[Card, ...] | None
    if pile == PILE_NOT_GIVEN:
        if dealt is not None:
            pile_cards = dealt.pile
        elif all(h is not None for h in known):
            pile_cards = tuple(to_list(sub(DECK, total)))
        else:
            pile_cards = None
    elif pile is None:
        pile_cards = None
    else:
        items = pile.split() if isinstance(pile, str) else pile  # "3S 3H …", top first
        try:
            pile_cards = tuple(c if isinstance(c, int) else _pile_card(c) for c in items)
            total = add(total, from_list(pile_cards))
        except (ValueError, InvalidNotation):
            raise RecordError("the pile holds unknown or too many cards", key="pile") from None
    pile_count = len(pile_cards) if pile_cards is not None else DECK_SIZE - sum(sizes)
    if pile_count < 0:
        raise RecordError("more than 108 cards dealt", key="counts")
    if leader is not None and not 0 <= leader < seats:
        raise RecordError(f"leader is a seat 0 … {seats - 1}", key="leader")
    setup = Setup(rules, known, tuple(sizes), pile_cards, pile_count, raw_seed, leader)
    first = leader if leader is not None else _opening_leader(known)
    return State(setup, PHASE_PLAY, first, known, tuple(sizes), pile_cards, pile_count)


def _pile_card(name: object) -> Card:
    return parse_name(name)


DIAMOND_THREE: Final[Card] = 2  # ♦3


def _opening_leader(hands: Sequence[Cards | None]) -> int:
    """Without a named leader: the first seat holding ♦3, else seat 0."""
    for seat, hand in enumerate(hands):
        if hand is not None and hand.count(DIAMOND_THREE):
            return seat
    return 0


# --- small helpers -------------------------------------------------------------------------


def next_in(state: State, seat: int, skip_passed: bool = False) -> int:
    """The next seat still in after ``seat`` in the direction of play (``-1``: none)."""
    n = state.seats
    for i in range(1, n + 1):
        s = (seat + i * state.direction) % n
        if s == seat:
            break
        if s in state.out or (skip_passed and state.passed >> s & 1):
            continue
        return s
    return -1


def queen_receivers(state: State) -> tuple[int, ...]:
    """Rule 12, per seat: whom it gives its Q cards to (``-1``: it gives nothing). The player
    going out with the Qs (still in, no cards left) is exempt both ways (seed 004: a player
    going out on the card is not subject to its effect): it gives nothing and nobody gives to
    it; the player before it gives to the next player still in after it."""
    n = state.seats
    skipped = [s in state.out or state.counts[s] == 0 for s in range(n)]
    receivers = []
    for seat in range(n):
        to = -1
        if not skipped[seat]:
            for i in range(1, n):
                s = (seat + i * state.direction) % n
                if not skipped[s]:
                    to = s
                    break
        receivers.append(to)
    return tuple(receivers)


def take_cards(state: State, seat: int, cards: Cards) -> State:
    """``seat`` loses ``cards`` (only counted when the hand is unknown)."""
    hand = state.hands[seat]
    hands = state.hands
    if hand is not None:
        hands = with_item(state.hands, seat, sub(hand, cards))
    return state._replace(
        hands=hands, counts=with_item(state.counts, seat, state.counts[seat] - len(cards))
    )


def give_cards(state: State, seat: int, cards: Cards) -> State:
    hand = state.hands[seat]
    hands = state.hands
    if hand is not None:
        hands = with_item(state.hands, seat, add(hand, cards))
    return state._replace(
        hands=hands, counts=with_item(state.counts, seat, state.counts[seat] + len(cards))
    )


T = TypeVar("T")


def with_item(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def seat_holds(state: State, seat: int, cards: Cards) -> bool:
    hand = state.hands[seat]
    if hand is None:
        return state.counts[seat] >= len(cards)
    return holds(hand, cards)


def not_held(seat: int) -> IllegalMove:
    return illegal(
        "card_not_in_hand",
        f"seat {seat} does not hold those cards",
        f"{seat}番の手札にないカードです",
        "possession",
    )


def zone_cards(state: State, cards: Cards, zone: int) -> Cards:
    """Those of ``cards`` still in ``zone``."""
    if zone == ZONE_NONE:
        return EMPTY
    return common(cards, _source(state, cards, zone)[1])


def take_source(state: State) -> tuple[str, Cards]:
    """Where the cards an A takes back lie now (a play on the table may have flowed since)."""
    return _source(state, state.take_pool, state.take_zone)


def _source(state: State, cards: Cards, zone: int) -> tuple[str, Cards]:
    if zone == ZONE_TABLE and holds(state.table_cards, cards):
        return "table_cards", state.table_cards
    if zone == ZONE_DISCARDED:
        return "discarded", state.discarded
    if zone == ZONE_DESTROYED:
        return "destroyed", state.destroyed
    return "flowed", state.flowed


def take_options(state: State) -> Cards:
    """The cards an A may take back now: those of the play, cut, discard or destruction just
    before it that are still where they went (a renewal may have taken them into the pile)."""
    return common(state.take_pool, take_source(state)[1])


def targets(state: State, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat and s not in state.out]
