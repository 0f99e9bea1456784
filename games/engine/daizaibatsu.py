"""The 大財閥 (Daizaibatsu) family: 大富豪 with an effect for every rank and a draw pile (山札).

Two packs and four jokers (108 cards); each seat is dealt ``hand_size`` cards and the rest is
the pile. A play is checked against the table, then its card effects run as a queue of named
rule steps (:data:`STEPS`, one function per effect rank), in the order of the rules reference's
F12 reading; a step that needs a player's choice (a target, cards to give, discard, destroy or
take back, a joker double-back, the cards drawn in open-table mode) stops the queue with a
:class:`~games.engine.family.Decision` owed, and the queue runs on once the decision is made.
The last step of every play settles it: who has gone out, and whose turn it is.

    >>> from games.engine.daizaibatsu_rules import DAIZAIBATSU
    >>> rules = DAIZAIBATSU.with_overrides(finish_kill_card="off", zaibatsu_revolution="off")
    >>> state = new_game(rules, ["4S 9H", "5D 6D", "7C 8C", "TH JH"], pile=["3S", "3H", "3D", "3C"])
    >>> state, events = apply(state, Move.play(0, "4S"))
    >>> [e.kind for e in events], names(state.hands[0])
    (['played', 'drew'], ['3S', '3H', '3D', '3C', '9H'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, NamedTuple, TypeVar

from .cards import Card
from .core import TITLES
from .daizaibatsu_combos import (
    ACE,
    DECK,
    DECK_SIZE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    JOKERS,
    KING,
    NINE,
    QUEEN,
    SET,
    SEVEN,
    SIX,
    STAIRS,
    TEN,
    THREE,
    TWO,
    Combo,
    add,
    card_name,
    classify,
    common,
    from_list,
    holds,
    jokers,
    jokers_alone,
    make,
    names,
    numbers,
    parse,
    readings,
    strength,
    sub,
    suit_letters,
    to_list,
)
from .daizaibatsu_rules import (
    DAIZAIBATSU,
    FAMILY,
    PRESETS,
    SWITCHES,
    DaizaibatsuRules,
    ruleset_from_record,
)
from .deal import ALGORITHM, seed_bytes, shuffled
from .errors import IllegalMove, InvalidNotation, RecordError, RulesError
from .events import Event
from .family import FEWER, Decision, Metric, SeatResult, form_error, read_move_object, register
from .multideck import EMPTY, Cards
from .snapshot import SnapshotError

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


def _event(what: str, **values: object) -> DaizaibatsuEvent:
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


def _illegal(code: str, en: str, ja: str, rule: str) -> IllegalMove:
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


def new_game(
    rules: DaizaibatsuRules,
    hands: Sequence[Cards | str | list[str] | None] | None = None,
    *,
    counts: Sequence[int] | None = None,
    pile: Sequence[Card | str] | str | None = "deal",
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
    if isinstance(pile, str):  # not given
        if dealt is not None:
            pile_cards = dealt.pile
        elif all(h is not None for h in known):
            pile_cards = tuple(to_list(sub(DECK, total)))
        else:
            pile_cards = None
    elif pile is None:
        pile_cards = None
    else:
        try:
            pile_cards = tuple(c if isinstance(c, int) else _pile_card(c) for c in pile)
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
    try:
        card = parse(name if isinstance(name, str) else repr(name))
    except InvalidNotation:
        raise
    return to_list(card)[0]


DIAMOND_THREE: Final[Card] = 2  # ♦3


def _opening_leader(hands: Sequence[Cards | None]) -> int:
    """Without a named leader: the first seat holding ♦3, else seat 0."""
    for seat, hand in enumerate(hands):
        if hand is not None and hand.count(DIAMOND_THREE):
            return seat
    return 0


# --- small helpers -------------------------------------------------------------------------


def _next_in(state: State, seat: int, skip_passed: bool = False) -> int:
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


def _take_cards(state: State, seat: int, cards: Cards) -> State:
    """``seat`` loses ``cards`` (only counted when the hand is unknown)."""
    hand = state.hands[seat]
    hands = state.hands
    if hand is not None:
        hands = _with(state.hands, seat, sub(hand, cards))
    return state._replace(
        hands=hands, counts=_with(state.counts, seat, state.counts[seat] - len(cards))
    )


def _give_cards(state: State, seat: int, cards: Cards) -> State:
    hand = state.hands[seat]
    hands = state.hands
    if hand is not None:
        hands = _with(state.hands, seat, add(hand, cards))
    return state._replace(
        hands=hands, counts=_with(state.counts, seat, state.counts[seat] + len(cards))
    )


T = TypeVar("T")


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _holds(state: State, seat: int, cards: Cards) -> bool:
    hand = state.hands[seat]
    if hand is None:
        return state.counts[seat] >= len(cards)
    return holds(hand, cards)


def _not_held(seat: int) -> IllegalMove:
    return _illegal(
        "card_not_in_hand",
        f"seat {seat} does not hold those cards",
        f"{seat}番の手札にないカードです",
        "possession",
    )


# --- reading a play ------------------------------------------------------------------------


def read_play(cards: Cards, as_: Sequence[Card]) -> Combo:
    """The combination ``cards`` form with the jokers standing for ``as_`` (inferred when the
    reading is unique); raises ``IllegalMove``."""
    nums = numbers(cards)
    k = jokers(cards)
    if not cards:
        raise _illegal("invalid_combination", "a play needs cards", "カードを出してください", "1")
    if not nums:
        if as_:
            raise _illegal(
                "bad_joker_assignment",
                "jokers played alone stand for nothing",
                "ジョーカーだけのときは何の代わりにもなりません",
                "16",
            )
        if k > 3:
            raise _illegal(
                "invalid_combination",
                "at most three jokers may be played alone",
                "ジョーカーだけで出せるのは3枚までです",
                "16",
            )
        return jokers_alone(k)
    if k == 0:
        if as_:
            raise _illegal(
                "bad_joker_assignment", "no joker to assign", "ジョーカーがありません", "16"
            )
        found = classify(nums, 0)
        if found is None:
            raise _not_a_combination()
        return found
    if as_:
        if len(as_) != k or any(c >= 52 for c in as_):
            raise _illegal(
                "bad_joker_assignment",
                f"name one number card for each of the {k} jokers",
                f"ジョーカー{k}枚それぞれの代わりのカードを指定してください",
                "16",
            )
        try:
            reading = nums + from_list(as_)
        except ValueError:
            raise _illegal(
                "bad_joker_assignment",
                "a joker may not stand for a third copy of a card",
                "同じカードは2枚までです",
                "16",
            ) from None
        found = classify(reading, k)
        if found is None:
            raise _not_a_combination()
        return found
    options = readings(nums, k)
    if not options:
        raise _not_a_combination()
    if len(options) > 1:
        raise _illegal(
            "choice_required",
            "say what the jokers stand for ('as')",
            "ジョーカーが何の代わりか指定してください",
            "16",
        )
    found = classify(nums + from_list(options[0]), k)
    assert found is not None
    return found


def _not_a_combination() -> IllegalMove:
    return _illegal(
        "invalid_combination",
        "not a set or stairs",
        "同じ数字か階段ではありません",
        "1–2",
    )


# --- checking a play against the table -----------------------------------------------------


class Verdict(NamedTuple):
    """How a legal play lands: ``cut`` (CUT_*), a ``down_number``, a new suit ``lock``
    (-1: none), a ``counter`` revolution."""

    cut: int
    down_number: bool
    lock: int
    counter: bool


def _error(code: str, en: str, ja: str, rule: str) -> tuple[str, str, str, str]:
    return (code, en, ja, rule)


def judge(state: State, combo: Combo, respond: bool = False) -> Verdict | tuple[str, str, str, str]:
    """The verdict on ``combo`` in ``state`` (or the error: code, English, Japanese, rule).
    ``respond``: an answer in the 8-cut window (only 砂嵐, 3s revolutions and stairs
    revolutions holding a 3)."""
    table = state.table
    if respond:
        ok = combo.sandstorm or (
            combo.revolution
            and (
                (combo.kind == SET and combo.rank == THREE)
                or (combo.kind == STAIRS and combo.rank == THREE)
            )
        )
        if not ok:
            return _error(
                "no_cut",
                "only 砂嵐, four 3s or stairs revolution with a 3 answer an 8-cut",
                "8切りを返せるのは砂嵐・3の革命・3を含む階段革命だけです",
                "8",
            )
        return Verdict(CUT_SANDSTORM if combo.sandstorm else CUT_NONE, False, -1, False)
    if table is None:
        return Verdict(CUT_SANDSTORM if combo.sandstorm else _eight(combo), False, -1, False)
    order = state.reversed_order
    if table.kind == JOKERS:
        if combo.sandstorm:
            return Verdict(CUT_SANDSTORM, False, -1, False)
        if combo.spade_threes and combo.size == table.size:
            return Verdict(CUT_SPADE_THREE, False, -1, False)
        if combo.kind == SET and combo.rank == THREE and combo.joker_count:
            return _error(
                "invalid_combination",
                "no joker may stand in for ♠3",
                "♠3の代わりにジョーカーは使えません",
                "3",
            )
        return _error(
            "not_stronger",
            f"only ♠3 × {table.size} or 砂嵐 cut jokers × {table.size}",
            f"ジョーカー{table.size}枚を切れるのは♠3 {table.size}枚か砂嵐だけです",
            "16",
        )
    if combo.sandstorm and not _is_revolution_table(state):
        return Verdict(CUT_SANDSTORM, False, -1, False)
    if combo.sandstorm:
        return _error(
            "not_stronger",
            "砂嵐 cannot cut a revolution",
            "砂嵐は革命を切れません",
            "3",
        )
    if combo.kind == JOKERS:
        if table.kind != SET:
            return _error(
                "wrong_kind", "jokers alone answer a set", "ジョーカーはペア等にだけ出せます", "16"
            )
        if table.size != combo.size:
            return _wrong_count(table.size)
        return Verdict(CUT_NONE, False, -1, False)
    if combo.kind != table.kind:
        return _error(
            "wrong_kind",
            f"the table is a {table.kind}",
            "場と同じ形で出してください",
            "1",
        )
    cut = _eight(combo)
    if combo.kind == STAIRS:
        if table.revolution and combo.size > table.size:
            return Verdict(cut, False, -1, True)
        if combo.size != table.size:
            return _wrong_count(table.size)
        if state.lock >= 0 and combo.suits != state.lock:
            return _locked()
        if combo.weakest(order) <= table.weakest(order):
            return _weaker()
        lock = table.suits if state.lock < 0 and combo.suits == table.suits else -1
        return Verdict(cut, False, lock, table.revolution and combo.revolution)
    # sets
    if combo.size >= 4:
        if table.size <= 3:
            return _error(
                "too_small_a_table",
                "a set of four or more may not be played on 1–3 cards",
                "4枚以上の組は1〜3枚の場に出せません",
                "20",
            )
        if combo.size > table.size:
            return Verdict(cut, False, -1, True)
    if combo.size != table.size:
        return _wrong_count(table.size)
    if state.lock >= 0 and combo.suits != state.lock:
        return _locked()
    if strength(combo.rank, order) > _table_strength(table, order):
        lock = table.suits if state.lock < 0 and combo.suits == table.suits else -1
        return Verdict(cut, False, lock, combo.revolution)
    if (
        _down_number_table(state, table)
        and combo.suits == table.suits
        and strength(combo.rank, order) == strength(table.rank, order) - 1
    ):
        return Verdict(cut, True, table.suits if state.lock < 0 else -1, False)
    return _weaker()


def _table_strength(table: Combo, order: bool) -> int:
    return strength(table.rank, order)


def _eight(combo: Combo) -> int:
    if combo.kind == JOKERS:
        return CUT_NONE
    return CUT_EIGHT if any(r == EIGHT for r, _ in combo.rank_counts()) else CUT_NONE


def _is_revolution_table(state: State) -> bool:
    table = state.table
    return table is not None and (
        table.revolution
        or (table.three_nines and state.rules.three_nines_at_once)
        or state.rev_chain > 0
    )


def _down_number_table(state: State, table: Combo) -> bool:
    """Rule 18: not on an 8, J, joker, 砂嵐, any revolution or a ♠3."""
    return not (
        table.rank in (EIGHT, JACK)
        or table.joker_count
        or table.sandstorm
        or _is_revolution_table(state)
        or table.spade_threes
    )


def _wrong_count(size: int) -> tuple[str, str, str, str]:
    return _error("wrong_count", f"play {size} cards", f"{size}枚で出してください", "1")


def _locked() -> tuple[str, str, str, str]:
    return _error("suit_locked", "the suits are locked", "縛りのマークで出してください", "17")


def _weaker() -> tuple[str, str, str, str]:
    return _error("not_stronger", "not stronger than the table", "場より強くありません", "1")


def forbidden_finish(state: State, combo: Combo) -> bool:
    """F4: going out with 3s only in a revolution, 8s only, 2s only in normal order, jokers
    only."""
    if not state.rules.forbidden_finish:
        return False
    if combo.kind == JOKERS:
        return True
    if any(rank == ACE for rank, _ in combo.rank_counts()) and not _zone_cards(
        state, state.recent, state.recent_zone
    ):
        return True  # an A that has nothing to take back would finish
    if combo.kind != SET:
        return False
    return (
        combo.rank == EIGHT
        or (combo.rank == THREE and state.revolution)
        or (combo.rank == TWO and not state.revolution)
    )


# --- the effect steps ----------------------------------------------------------------------

StepFn = Callable[[State, Step, list[DaizaibatsuEvent]], State]


def _push(state: State, *steps: Step) -> State:
    return state._replace(queue=(*steps, *state.queue))


def _owe(state: State, *owed: Owed) -> State:
    return state._replace(owed=(*state.owed, *owed))


def draw(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rules 4, 2, 9, 19, 21: ``seat`` draws ``n`` from the top of the pile; an empty pile is
    renewed from the flowed, discarded and destroyed cards ``pile_renewals`` times (F2), and the
    next exhaustion ends the game (rule 24)."""
    seat, wanted = step.seat, step.n
    if wanted <= 0 or state.phase == PHASE_OVER:
        return state
    got = EMPTY
    got_count = 0
    while got_count < wanted:
        if state.pile_count == 0:
            if state.renewals >= state.rules.pile_renewals:
                state = _drawn(state, seat, got, got_count, events)
                return _forced_end(state, seat, events)
            state = _renew(state, events)
            continue
        n = min(wanted - got_count, state.pile_count)
        if state.pile is not None:
            got = add(got, from_list(state.pile[:n]))
            state = state._replace(pile=state.pile[n:], pile_count=state.pile_count - n)
        else:
            state = state._replace(pile_count=state.pile_count - n)
        got_count += n
    return _drawn(state, seat, got, got_count, events)


def _drawn(
    state: State, seat: int, got: Cards, count: int, events: list[DaizaibatsuEvent]
) -> State:
    if count == 0:
        return state
    if seat in state.out:
        state = state._replace(out=tuple(s for s in state.out if s != seat))
        events.append(_event("returned_to_play", seat=seat))
    events.append(_event("drew", seat=seat, count=count))
    if state.pile is None and state.hands[seat] is not None:
        # Open table: the cards are unknown to the engine, the referee names them.
        state = state._replace(counts=_with(state.counts, seat, state.counts[seat] + count))
        if state.phase == PHASE_PLAY:
            return _owe(state, Owed(seat, DRAW, count))
        return state
    if state.pile is None:
        return state._replace(counts=_with(state.counts, seat, state.counts[seat] + count))
    return _give_cards(state, seat, got)


def _renew(state: State, events: list[DaizaibatsuEvent]) -> State:
    waste = add(add(state.flowed, state.discarded), state.destroyed)
    number = state.renewals + 1
    pile = None if state.pile is None else renewal_order(state.setup.seed, number, waste)
    recent_gone = state.recent_zone in (ZONE_FLOWED, ZONE_DISCARDED, ZONE_DESTROYED)
    events.append(_event("pile_renewed", count=len(waste), renewal=number))
    return state._replace(
        pile=pile,
        pile_count=len(waste),
        flowed=EMPTY,
        discarded=EMPTY,
        destroyed=EMPTY,
        renewals=number,
        recent=EMPTY if recent_gone else state.recent,
        recent_zone=ZONE_NONE if recent_gone else state.recent_zone,
    )


def _forced_end(state: State, seat: int, events: list[DaizaibatsuEvent]) -> State:
    events.append(_event("forced_end", seat=seat))
    events.append(_event("game_over"))
    return state._replace(
        phase=PHASE_OVER,
        forced_end=True,
        forced_by=seat,
        queue=(),
        owed=(),
        given=(),
        eight_from=-1,
        kill_from=-1,
    )


def skip(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 5: the next 2n − 1 players are skipped (settled with the turn)."""
    return state._replace(skip=state.skip + 2 * step.n - 1)


def open_hand(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 6: the hand is face up for good; ``arg`` 1 (a four-6 revolution): every hand."""
    seats = tuple(range(state.seats)) if step.arg else (step.seat,)
    mask = state.opened
    for s in seats:
        mask |= 1 << s
    events.append(_event("hand_opened", seats=seats))
    return state._replace(opened=mask)


def give_seven(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 7: give n chosen cards to the next player; nothing when the 7s were the last cards."""
    held = state.counts[step.seat]
    to = _next_in(state, step.seat)
    if held == 0 or to < 0:
        return state
    return _owe(state, Owed(step.seat, GIVE, min(step.n, held), to))


def eight_cut(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 8: the trick ends; the player leads (settled with the turn)."""
    events.append(_event("eight_cut", seat=step.seat))
    return state._replace(cut=CUT_EIGHT)


def reverse(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 9: the direction reverses, once per play (F6) or once per 9."""
    times = step.n if state.rules.reverse_per_card else 1
    direction = state.direction if times % 2 == 0 else -state.direction
    events.append(_event("reversed", seat=step.seat, direction=direction))
    return state._replace(direction=direction)


def nine_target(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 9: three 9s: the player names someone who draws 3."""
    return _target(state, step.seat, 3)


def two_target(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 15: the player names someone who draws 2n."""
    return _target(state, step.seat, 2 * step.n)


def _target(state: State, seat: int, amount: int) -> State:
    if not _targets(state, seat):
        return state
    return _owe(state, Owed(seat, TARGET, 0, -1, amount, seat))


def _targets(state: State, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat and s not in state.out]


def discard(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 10: discard n chosen cards; no effect when the 10s finish (``arg`` 1)."""
    held = state.counts[step.seat]
    if step.arg or held == 0:
        return state
    return _owe(state, Owed(step.seat, DISCARD, min(step.n, held)))


def eleven_back(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 11: J reverses the order until the trick flows (XOR with the revolution)."""
    back = not state.back
    events.append(_event("eleven_back", on=int(back)))
    return state._replace(back=back)


def queen(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 12: every player still in gives n chosen cards to the next, all at once; the player
    going out with the Qs (no cards left) is exempt."""
    owed = []
    for s in range(state.seats):
        to = _next_in(state, s)
        if s in state.out or state.counts[s] == 0 or to < 0:
            continue
        owed.append(Owed(s, GIVE, min(step.n, state.counts[s]), to, group=1))
    if not owed:
        return state
    return _owe(state, *owed)._replace(given=tuple(EMPTY for _ in range(state.seats)))


def king(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 13: destroy n cards of the next player: the K player names them (chosen from an
    open hand, picked blind otherwise)."""
    victim = _next_in(state, step.seat)
    if victim < 0 or state.counts[victim] == 0:
        return state
    return _owe(state, Owed(step.seat, DESTROY, min(step.n, state.counts[victim]), victim))


def ace(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 14: take back n of the cards played, cut, discarded or destroyed just before."""
    count = min(step.n, len(take_options(state)))
    if count == 0:
        return state
    return _owe(state, Owed(step.seat, TAKE, count))


def revolution_now(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 19: the order reverses; every other player still in draws 2 (stairs revolutions,
    three 9s under F7); ``arg`` 1: a stairs counter-revolution (rule 22)."""
    if step.arg:
        events.append(_event("counter_revolution", seat=step.seat))
    on = not state.revolution
    events.append(_event("revolution", on=int(on)))
    state = state._replace(revolution=on)
    draws = [Step("draw", s, 2) for s in _others_from(state, step.seat)]
    return _push(state, *draws)


def _others_from(state: State, seat: int) -> list[int]:
    """The other players still in, from the next seat in turn order."""
    n = state.seats
    return [
        (seat + i * state.direction) % n
        for i in range(1, n)
        if (seat + i * state.direction) % n not in state.out
    ]


def revolution_pending(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 20: a 4+ set's revolution waits until everyone else passes; ``arg`` 1: it answers
    a pending one (rule 21, a counter-revolution)."""
    if step.arg:
        events.append(_event("counter_revolution", seat=step.seat))
        return state._replace(rev_chain=state.rev_chain + 1, rev_last=step.seat)
    events.append(_event("revolution_pending", seat=step.seat))
    return state._replace(rev_chain=1, rev_last=step.seat)


def settle(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The end of a play: who has gone out, then whose turn it is (cuts, 5-skips, flows)."""
    seat = step.seat
    state = _finishers(state, seat, events)
    if state.phase == PHASE_OVER:
        return state
    cut, skipped = state.cut, state.skip
    state = state._replace(cut=CUT_NONE, skip=0)
    if cut != CUT_NONE:
        leader = seat if seat not in state.out else _next_in(state, seat)
        state = _push(state, Step("flow", leader, 0, 1))
        if cut == CUT_EIGHT and state.rules.eight_cut_window:
            state = state._replace(eight_from=seat)
        return state
    if skipped:
        state = _skip_players(state, seat, skipped, events)
        if state.queue:
            return state
    following = _next_in(state, seat, skip_passed=True)
    if following < 0:
        leader = seat if seat not in state.out else _next_in(state, seat)
        return _push(state, Step("flow", leader))
    return state._replace(turn=following)


def _skip_players(state: State, seat: int, count: int, events: list[DaizaibatsuEvent]) -> State:
    n = state.seats
    skipped: list[int] = []
    counted = 0
    everyone = True
    for i in range(1, n):
        s = (seat + i * state.direction) % n
        if s in state.out:
            if state.rules.skip_counts_finished:
                counted += 1
            if counted >= count:
                everyone = False
                break
            continue
        skipped.append(s)
        counted += 1
        if counted >= count:
            everyone = i == n - 1 or all(
                (seat + j * state.direction) % n in state.out for j in range(i + 1, n)
            )
            break
    passed = state.passed
    for s in skipped:
        passed |= 1 << s
    events.append(_event("skipped", seat=seat, seats=tuple(skipped)))
    state = state._replace(passed=passed)
    if everyone or _next_in(state, seat, skip_passed=True) < 0:
        leader = seat if seat not in state.out else _next_in(state, seat)
        return _push(state, Step("flow", leader))
    return state


def flow(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The trick flows: a pending revolution applies first (rules 20–21), then the table is
    cleared and ``seat`` leads."""
    state = _push(state, Step("clear", step.seat, 0, step.arg))
    if state.rev_chain:
        state = _apply_chain(state, events)  # its draws come before the clearing
    return state


def _apply_chain(state: State, events: list[DaizaibatsuEvent]) -> State:
    chain, last = state.rev_chain, state.rev_last
    counters = chain - 1
    toggles = chain if state.rules.counter_toggles else 1
    on = state.revolution != (toggles % 2 == 1)
    events.append(_event("revolution", on=int(on)))
    state = state._replace(revolution=on, rev_chain=0, rev_last=-1)
    if counters == 0:
        draws = [Step("draw", s, 2) for s in _others_from(state, last)]
    else:
        n = state.seats
        returners = state.rules.counter_draw_returns_finished
        draws = [
            Step("draw", (last + i * state.direction) % n, 2 * counters)
            for i in range(1, n)
            if returners or (last + i * state.direction) % n not in state.out
        ]
    return _push(state, *draws)


def clear(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The table flows and ``seat`` leads. What an A may take back is the current trick's:
    after a flow nothing (else a player holding only As would lead one and take it back
    forever); after a cut or a 上がり殺し (``arg`` 1) the cut cards or the kill card."""
    leader = step.seat
    if leader < 0 or leader in state.out:
        leader = _next_in(state, leader if leader >= 0 else 0)
    if leader < 0:
        leader = 0
    events.append(_event("trick_cleared", seat=leader))
    return state._replace(
        flowed=add(state.flowed, state.table_cards),
        table=None,
        table_cards=EMPTY,
        last=-1,
        passed=0,
        back=False,
        lock=-1,
        turn=leader,
        recent=state.recent if step.arg else EMPTY,
        recent_zone=(ZONE_FLOWED if state.recent_zone == ZONE_TABLE else state.recent_zone)
        if step.arg
        else ZONE_NONE,
    )


STEPS: Final[Mapping[str, StepFn]] = {
    "draw": draw,
    "skip": skip,
    "open": open_hand,
    "give7": give_seven,
    "eight": eight_cut,
    "reverse": reverse,
    "nine_target": nine_target,
    "discard": discard,
    "eleven_back": eleven_back,
    "queen": queen,
    "king": king,
    "ace": ace,
    "two": two_target,
    "revolution_now": revolution_now,
    "revolution_pending": revolution_pending,
    "settle": settle,
    "flow": flow,
    "clear": clear,
}


def _finishers(state: State, seat: int, events: list[DaizaibatsuEvent]) -> State:
    n = state.seats
    for i in range(n):
        s = (seat + i) % n
        if s in state.out or state.counts[s]:
            continue
        state = state._replace(out=(*state.out, s))
        events.append(_event("finished", seat=s, place=len(state.out)))
        if state.rules.kill_card is not None:
            state = state._replace(kill_from=s, kill_cards=state.table_cards)
    if sum(1 for s in range(n) if s not in state.out) <= 1:
        events.append(_event("game_over"))
        return state._replace(phase=PHASE_OVER, queue=(), owed=(), eight_from=-1, kill_from=-1)
    return state


def _run(state: State, events: list[DaizaibatsuEvent]) -> State:
    """Run the queued steps until a decision is owed, the game ends or the queue is empty."""
    queue = list(state.queue)
    state = state._replace(queue=())
    while queue and not state.owed and state.phase == PHASE_PLAY:
        step = queue.pop(0)
        state = STEPS[step.name](state, step, events)
        if state.queue:  # the step queued steps of its own: they run first
            queue[:0] = state.queue
            state = state._replace(queue=())
    if queue and state.phase == PHASE_PLAY:
        state = state._replace(queue=tuple(queue))
    return state


# --- the effects a play queues -------------------------------------------------------------

_RANK_STEPS: Final[Mapping[int, str]] = {
    FOUR: "draw",
    FIVE: "skip",
    SIX: "open",
    SEVEN: "give7",
    EIGHT: "eight",
    NINE: "reverse",
    TEN: "discard",
    JACK: "eleven_back",
    QUEEN: "queen",
    KING: "king",
    ACE: "ace",
    TWO: "two",
}


def effect_steps(
    state: State, seat: int, combo: Combo, finishing: bool, counter: bool
) -> list[Step]:
    """The steps a play queues: each rank's effect (F12 order inside stairs), then the
    revolution, then the settling of the play."""
    ranks = combo.rank_counts()
    if combo.kind == STAIRS and state.rules.stairs_effects_in_order:
        order = state.reversed_order
        ranks.sort(key=lambda rc: strength(rc[0], order))
    steps: list[Step] = []
    for rank, n in ranks:
        name = _RANK_STEPS.get(rank)
        if name is None:
            continue
        if rank == FOUR:
            steps.append(Step("draw", seat, 4 * n))
        elif rank == SIX:
            steps.append(Step("open", seat, n, int(combo.kind == SET and n >= 4)))
        elif rank == TEN:
            steps.append(Step("discard", seat, n, int(finishing)))
        else:
            steps.append(Step(name, seat, n))
        if rank == NINE and combo.three_nines:
            steps.append(Step("nine_target", seat, n))
    if combo.kind == STAIRS and combo.revolution:
        steps.append(Step("revolution_now", seat, 0, int(counter)))
    elif combo.kind == SET and combo.revolution:
        steps.append(Step("revolution_pending", seat, 0, int(counter and state.rev_chain > 0)))
    elif combo.three_nines:
        if state.rules.three_nines_at_once:
            steps.append(Step("revolution_now", seat))
        else:
            steps.append(Step("revolution_pending", seat, 0, int(state.rev_chain > 0)))
    steps.append(Step("settle", seat))
    return steps


# --- apply ---------------------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, tuple[DaizaibatsuEvent, ...]]:
    """The state after ``move`` and its events; raises ``IllegalMove`` (state unchanged)."""
    if state.phase == PHASE_OVER:
        raise _illegal("game_over", "the game is over", "ゲームは終わっています", "24")
    if not 0 <= move.seat < state.seats:
        raise _illegal("not_your_turn", "no such seat", "その席はありません", "seats")
    events: list[DaizaibatsuEvent] = []
    if move.action == PLAY:
        state = _apply_play(state, move, events)
    elif move.action == PASS:
        state = _apply_pass(state, move, events)
    else:
        state = _apply_decision(state, move, events)
    state = _run(state, events)
    return state, tuple(events)


def _apply_play(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    if move.respond:
        return _respond(state, move, events)
    if state.owed:
        raise _pending()
    if seat != state.turn or seat in state.out:
        raise _not_turn(seat)
    if not _holds(state, seat, move.cards):
        raise _not_held(seat)
    table = state.table
    if (
        table is not None
        and table.kind == JOKERS
        and jokers(move.cards)
        and numbers(move.cards)
        and len(move.cards) != 3
    ):
        raise _illegal(
            "invalid_combination",
            "no joker may stand in for ♠3",
            "♠3の代わりにジョーカーは使えません",
            "3",
        )
    combo = read_play(move.cards, move.as_)
    verdict = judge(state, combo)
    if not isinstance(verdict, Verdict):
        raise _illegal(*verdict)
    finishing = len(move.cards) == state.counts[seat]
    if finishing and forbidden_finish(state, combo):
        raise _illegal(
            "forbidden_finish",
            "you may not go out with that play",
            "そのカードでは上がれません",
            "F4",
        )
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY)
    return _put(state, seat, move, combo, verdict, finishing, events)


def _put(
    state: State,
    seat: int,
    move: Move,
    combo: Combo,
    verdict: Verdict,
    finishing: bool,
    events: list[DaizaibatsuEvent],
) -> State:
    """Lay the play on the table and queue its effects."""
    table = state.table
    state = _take_cards(state, seat, move.cards)
    named = tuple(sorted(to_list(combo.reading - numbers(move.cards)))) if combo.joker_count else ()
    events.append(_event("played", seat=seat, cards=move.cards, as_=named, combination=combo.kind))
    cut = verdict.cut
    if cut == CUT_SANDSTORM:
        events.append(_event("sandstorm", seat=seat))
    elif cut == CUT_SPADE_THREE:
        events.append(_event("spade_three_cut", seat=seat))
    lock = state.lock
    if verdict.lock >= 0:
        lock = verdict.lock
    if verdict.down_number:
        events.append(_event("down_number", seat=seat))
    if lock != state.lock:
        events.append(_event("lock_started", seat=seat, suits=" ".join(suit_letters(lock))))
    state = state._replace(
        passed=0 if table is None else state.passed,
        table=combo,
        table_cards=add(state.table_cards, move.cards),
        last=seat,
        lock=lock,
        cut=cut if cut in (CUT_SANDSTORM, CUT_SPADE_THREE) else CUT_NONE,
        take_pool=state.recent,
        take_zone=state.recent_zone,
        recent=move.cards,
        recent_zone=ZONE_TABLE,
    )
    counter = verdict.counter or (
        table is not None and combo.revolution and combo.kind == SET and state.rev_chain > 0
    )
    steps = effect_steps(state, seat, combo, finishing, counter)
    return state._replace(queue=(*steps, *state.queue))


def _respond(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    """Out of turn: the 8-cut window (F3) or 上がり殺し (rule 23)."""
    seat = move.seat
    if state.owed:
        raise _pending()
    if seat in state.out:
        raise _not_turn(seat)
    if not _holds(state, seat, move.cards):
        raise _not_held(seat)
    kill = state.rules.kill_card
    if (
        state.kill_from >= 0
        and kill is not None
        and seat != state.kill_from
        and len(move.cards) == 1
        and to_list(move.cards)[0] == kill
    ):
        return _finish_kill(state, seat, move, events)
    if state.eight_from < 0 or seat == state.eight_from:
        raise _not_turn(seat)
    combo = read_play(move.cards, move.as_)
    verdict = judge(state, combo, respond=True)
    if not isinstance(verdict, Verdict):
        raise _illegal(*verdict)
    finishing = len(move.cards) == state.counts[seat]
    if finishing and forbidden_finish(state, combo):
        raise _illegal(
            "forbidden_finish",
            "you may not go out with that play",
            "そのカードでは上がれません",
            "F4",
        )
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY, turn=seat)
    return _put(state, seat, move, combo, verdict, finishing, events)


def _finish_kill(state: State, seat: int, move: Move, events: list[DaizaibatsuEvent]) -> State:
    """Rule 23: the kill card cancels the finish; the finisher takes the table's cards."""
    if state.counts[seat] < 2:
        raise _illegal(
            "choice_invalid",
            "上がり殺し needs at least two cards in hand",
            "上がり殺しには手札が2枚以上必要です",
            "23",
        )
    victim = state.kill_from
    state = _take_cards(state, seat, move.cards)
    taken = state.kill_cards
    table_part = taken if holds(state.table_cards, taken) else EMPTY
    flowed_part = sub(taken, table_part) if holds(state.flowed, sub(taken, table_part)) else EMPTY
    state = state._replace(
        table_cards=sub(state.table_cards, table_part),
        flowed=sub(state.flowed, flowed_part),
    )
    back = add(table_part, flowed_part)
    state = _give_cards(state, victim, back)
    events.append(_event("finish_killed", seat=seat, to=victim, cards=back))
    state = state._replace(
        out=tuple(s for s in state.out if s != victim),
        discarded=add(state.discarded, move.cards),
        recent=move.cards,
        recent_zone=ZONE_DISCARDED,
        kill_from=-1,
        kill_cards=EMPTY,
        eight_from=-1,
        rev_chain=0,
        rev_last=-1,
    )
    return _push(state, Step("clear", seat, 0, 1))


def _apply_pass(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    if state.owed:
        raise _pending()
    if seat != state.turn or seat in state.out:
        raise _not_turn(seat)
    if state.passed >> seat & 1:
        raise _illegal("already_passed", "you have passed", "パス済みです", "F14")
    if state.table is None and any(True for _ in _plays(state, seat)):
        raise _illegal("must_lead", "lead a play", "親は出してください", "1")
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY)
    events.append(_event("passed", seat=seat))
    state = state._replace(passed=state.passed | 1 << seat)
    following = _next_in(state, seat, skip_passed=True)
    if state.table is None:
        if following < 0:  # nobody can lead: the game ends as at a forced end
            return _forced_end(state, seat, events)
        return state._replace(turn=following)
    if following < 0 or following == state.last:
        leader = state.last if state.last not in state.out else _next_in(state, state.last)
        return _push(state, Step("flow", leader))
    return state._replace(turn=following)


def _pending() -> IllegalMove:
    return _illegal(
        "decision_pending",
        "a decision is owed first",
        "先に選択を済ませてください",
        "effects",
    )


def _not_turn(seat: int) -> IllegalMove:
    return _illegal(
        "not_your_turn", f"not seat {seat}'s turn", f"{seat}番の手番ではありません", "turn"
    )


def _apply_decision(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    kind = CARD_DECISIONS.get(move.action, move.action)
    if kind in (ACCEPT,):
        kind = DOUBLE_BACK
    found = [o for o in state.owed if o.seat == seat and o.kind == kind]
    if not found:
        if not state.owed:
            raise _illegal("choice_invalid", "no decision is owed", "選択はありません", "effects")
        raise _illegal(
            "not_your_turn",
            "no such decision of this seat",
            "その選択はあなたのものではありません",
            "effects",
        )
    owed = found[0]
    rest = tuple(o for o in state.owed if o is not owed)
    if kind == TARGET:
        return _decide_target(state, owed, move, rest, events)
    if kind == DOUBLE_BACK:
        return _decide_double_back(state, owed, move, rest, events)
    if len(move.cards) != owed.size:
        raise _illegal(
            "wrong_count", f"choose {owed.size} cards", f"{owed.size}枚選んでください", kind
        )
    if kind == DRAW:
        return _decide_drew(state, owed, move, rest, events)
    if kind == TAKE:
        return _decide_take(state, owed, move, rest, events)
    victim = owed.to if kind == DESTROY else seat
    if not _holds(state, victim, move.cards):
        raise _not_held(victim)
    if kind == DISCARD:
        state = _take_cards(state, seat, move.cards)
        events.append(_event("discarded", seat=seat, cards=move.cards))
        return state._replace(
            owed=rest,
            discarded=add(state.discarded, move.cards),
            recent=move.cards,
            recent_zone=ZONE_DISCARDED,
        )
    if kind == DESTROY:
        return _decide_destroy(state, owed, move, rest, events)
    # give
    if owed.group:
        given = _with(state.given, seat, move.cards)
        state = state._replace(owed=rest, given=given)
        if any(o.group for o in rest):
            return state
        for s in range(state.seats):
            cards = state.given[s]
            if cards:
                state = _take_cards(state, s, cards)
        for s in range(state.seats):
            cards = state.given[s]
            if cards:
                to = _next_in(state, s) if _next_in(state, s) >= 0 else s
                state = _give_cards(state, to, cards)
                events.append(_event("gave", seat=s, to=to, cards=cards, count=len(cards)))
        return state._replace(given=())
    state = _take_cards(state, seat, move.cards)
    state = _give_cards(state, owed.to, move.cards)
    events.append(_event("gave", seat=seat, to=owed.to, cards=move.cards, count=len(move.cards)))
    return state._replace(owed=rest)


def _decide_target(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    if move.target not in _targets(state, move.seat):
        raise _illegal(
            "choice_invalid",
            "name another player still in",
            "まだ上がっていない他のプレイヤーを指名してください",
            "2/9",
        )
    target = move.target
    state = state._replace(owed=rest)
    hand = state.hands[target]
    if (hand is None and state.counts[target]) or (hand is not None and jokers(hand)):
        return _owe(state, Owed(target, DOUBLE_BACK, 0, owed.source, owed.amount, owed.source))
    return _push(state, Step("draw", target, owed.amount))


def _decide_double_back(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    state = state._replace(owed=rest)
    if move.action == ACCEPT:
        return _push(state, Step("draw", move.seat, owed.amount))
    joker = make(EMPTY, 1)
    if not _holds(state, move.seat, joker):
        raise _not_held(move.seat)
    state = _take_cards(state, move.seat, joker)
    events.append(_event("double_back", seat=move.seat, to=owed.source))
    amount = owed.amount * state.rules.double_back_factor
    state = state._replace(
        discarded=add(state.discarded, joker),
        recent=joker,
        recent_zone=ZONE_DISCARDED,
    )
    return _push(state, Step("draw", owed.source, amount))


def _decide_take(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    cards = move.cards
    field_name, source = _take_source(state)
    if not holds(common(state.take_pool, source), cards):
        raise _illegal(
            "choice_invalid",
            "take back only cards of the play, cut, discard or destruction just before",
            "直前に出された・捨てられた・破壊されたカードから選んでください",
            "14",
        )
    state = state._replace(**{field_name: sub(source, cards)})  # type: ignore[arg-type]
    state = _give_cards(state, move.seat, cards)
    events.append(_event("took_back", seat=move.seat, cards=cards))
    return state._replace(owed=rest, take_pool=EMPTY, take_zone=ZONE_NONE)


def _zone_cards(state: State, cards: Cards, zone: int) -> Cards:
    """Those of ``cards`` still in ``zone``."""
    if zone == ZONE_NONE:
        return EMPTY
    return common(cards, _source(state, cards, zone)[1])


def _take_source(state: State) -> tuple[str, Cards]:
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
    return common(state.take_pool, _take_source(state)[1])


def _decide_destroy(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    victim = owed.to
    cards = move.cards
    state = _take_cards(state, victim, cards)
    events.append(_event("destroyed", seat=move.seat, to=victim, cards=cards))
    state = state._replace(
        owed=rest,
        destroyed=add(state.destroyed, cards),
        recent=cards,
        recent_zone=ZONE_DESTROYED,
    )
    fours = sum(1 for c in to_list(cards) if c < 52 and c >> 2 == FOUR)
    sixes = any(c < 52 and c >> 2 == SIX for c in to_list(cards))
    steps: list[Step] = []
    if sixes:
        steps.append(Step("open", victim, 1))
    if fours:
        steps.append(Step("draw", victim, 4 * fours))
    return _push(state, *steps)


def _decide_drew(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    hand = state.hands[move.seat]
    assert hand is not None
    try:
        new = add(hand, move.cards)
    except ValueError:
        raise _illegal(
            "choice_invalid", "more copies than two packs hold", "2組を超える枚数です", "draw"
        ) from None
    return state._replace(owed=rest, hands=_with(state.hands, move.seat, new))


# --- legal moves ---------------------------------------------------------------------------


def legal_moves(state: State) -> Iterator[Move]:
    """Every move now: the owed decisions' moves, else the turn's plays and pass and the
    out-of-turn answers. Jokers: one move per distinct reading of a selection of cards (the
    jokers fill the missing cards of stairs; in sets they name each free suit at most as
    often as it is free); an unknown hand lists no card moves."""
    if state.phase == PHASE_OVER:
        return iter(())
    if state.owed:
        return iter(_decision_moves(state))
    moves = list(_plays(state, state.turn))
    if not (state.table is None and moves) and not state.passed >> state.turn & 1:
        moves.append(Move(state.turn, PASS))
    moves.extend(_responses(state))
    return iter(moves)


def _decision_moves(state: State) -> list[Move]:
    out: list[Move] = []
    for owed in state.owed:
        seat = owed.seat
        if owed.kind == TARGET:
            out.extend(Move(seat, TARGET, target=t) for t in _targets(state, seat))
        elif owed.kind == DOUBLE_BACK:
            out.append(Move(seat, ACCEPT))
            if _holds(state, seat, make(EMPTY, 1)):
                out.append(Move(seat, DOUBLE_BACK))
        elif owed.kind == DRAW:
            out.append(Move(seat, DREW, _unseen(state, owed.size)))
        else:
            if owed.kind == TAKE:
                pool: Cards | None = take_options(state)
            elif owed.kind == DESTROY:
                pool = state.hands[owed.to]
            else:
                pool = state.hands[seat]
            if pool is None:
                continue
            for chosen in _choices(pool, owed.size):
                out.append(Move(seat, _ACTION_OF[owed.kind], chosen))
    return out


_ACTION_OF: Final = {GIVE: GIVE, DISCARD: DISCARD, DESTROY: DESTROY, TAKE: TAKE}


def _choices(pool: Cards, count: int) -> list[Cards]:
    """Every distinct selection of ``count`` cards of ``pool``."""
    out: list[Cards] = []
    for chosen in sorted(set(combinations(to_list(pool), count))):
        one = two = 0
        k = 0
        for card in chosen:
            if card >= 52:
                k += 1
            elif one >> card & 1:
                two |= 1 << card
            else:
                one |= 1 << card
        out.append(make(Cards(one, two), k))
    return out


def _unseen(state: State, count: int) -> Cards:
    """A representative draw in open-table mode: the lowest cards not known elsewhere."""
    known = add(add(add(state.flowed, state.discarded), state.destroyed), state.table_cards)
    for hand in state.hands:
        if hand is not None:
            known = add(known, hand)
    return from_list(to_list(sub(DECK, known))[:count])


def _plays(state: State, seat: int, respond: bool = False) -> Iterator[Move]:
    """The legal plays of ``seat`` (a known hand)."""
    hand = state.hands[seat]
    if hand is None or seat in state.out:
        return
    finishing_count = state.counts[seat]
    leading = state.table is None and not respond  # any play may lead
    for cards, named, combo in _candidates(state, hand, respond):
        if not leading and not isinstance(judge(state, combo, respond), Verdict):
            continue
        if len(cards) == finishing_count and forbidden_finish(state, combo):
            continue
        yield Move(seat, PLAY, cards, named, -1, respond)


def _candidates(
    state: State, hand: Cards, respond: bool
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    """Selections with their joker readings, pruned by the table: its size and kind, and the
    ranks that could beat it (stronger, one weaker for down number, 3s for 砂嵐)."""
    table = state.table
    k = jokers(hand)
    nums = numbers(hand)
    masks = _suit_masks(nums)
    if respond:
        yield from _set_candidates(nums, k, THREE, range(3, 9))
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, range(4, 14), range(1))
        return
    held = masks[0] | masks[1] | masks[2] | masks[3]  # a bit per rank held
    if table is None:
        for j in range(1, min(k, 3) + 1):
            yield make(EMPTY, j), (), jokers_alone(j)
        for rank in range(13):
            if held >> rank & 1:
                yield from _set_candidates(nums, k, rank, None)
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, range(3, 14), None)
        return
    if table.kind == STAIRS:
        yield from _set_candidates(nums, k, THREE, range(3, 4))  # 砂嵐 answers any table
        lengths = range(table.size, 14) if table.revolution else range(table.size, table.size + 1)
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, lengths, None)
        return
    if table.kind == JOKERS:  # only ♠3s of the same number, or 砂嵐
        yield from _set_candidates(nums, k, THREE, range(3, 4))
        if table.size < 3:
            yield from _set_candidates(nums, k, THREE, range(table.size, table.size + 1))
        return
    order = state.reversed_order
    floor = strength(table.rank, order) - 1  # down number reaches one rank below
    if table.size >= 4:
        sizes = range(table.size, 9)
    else:
        sizes = range(table.size, table.size + 1)
        if table.size <= k:
            yield make(EMPTY, table.size), (), jokers_alone(table.size)
    sandstorm = True
    for rank in range(13):
        if held >> rank & 1 and strength(rank, order) >= floor:
            yield from _set_candidates(nums, k, rank, sizes)
            if rank == THREE and 3 in sizes:
                sandstorm = False
    if sandstorm:
        yield from _set_candidates(nums, k, THREE, range(3, 4))


def _suit_masks(nums: Cards) -> list[int]:
    """Per suit, a bit per rank held."""
    masks = [0, 0, 0, 0]
    for card in nums:
        masks[card & 3] |= 1 << (card >> 2)
    return masks


def _set_candidates(
    nums: Cards, k: int, rank: int, sizes: range | None
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    base = rank * 4
    per_suit = [(nums.one >> (base + s) & 1) + (nums.two >> (base + s) & 1) for s in range(4)]
    natural = per_suit[0] + per_suit[1] + per_suit[2] + per_suit[3]
    if natural == 0:
        return
    top = min(natural + k, 8)
    for size in range(1, top + 1):
        if sizes is not None and size not in sizes:
            continue
        for j in range(min(k, size - 1) + 1):
            for counts in _suit_counts(per_suit, size - j):
                chosen = _cards_of(rank, counts)
                suits = counts[0] + (counts[1] << 2) + (counts[2] << 4) + (counts[3] << 6)
                if j == 0:
                    yield chosen, (), Combo(SET, rank, size, suits, chosen, 0)
                    continue
                free = [2 - c for c in counts]
                cards = make(chosen, j)
                for named in _joker_suits(free, j):
                    reading = _cards_of(rank, [counts[t] + named.count(t) for t in range(4)])
                    key = suits + sum(1 << (2 * t) for t in named)
                    combo = Combo(SET, rank, size, key, reading, j)
                    yield cards, tuple(base + t for t in named), combo


def _suit_counts(per_suit: list[int], size: int) -> Iterator[list[int]]:
    for a in range(min(per_suit[0], size) + 1):
        for b in range(min(per_suit[1], size - a) + 1):
            for c in range(min(per_suit[2], size - a - b) + 1):
                d = size - a - b - c
                if 0 <= d <= per_suit[3]:
                    yield [a, b, c, d]


def _joker_suits(free: list[int], j: int) -> Iterator[tuple[int, ...]]:
    """The suits ``j`` jokers may name (as multisets), at most as often as each is free."""
    if j == 0:
        yield ()
        return

    def rec(start: int, left: int, acc: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield acc
            return
        for s in range(start, 4):
            if free[s] - acc.count(s) > 0:
                yield from rec(s, left - 1, (*acc, s))

    yield from rec(0, j, ())


def _cards_of(rank: int, counts: list[int]) -> Cards:
    one = two = 0
    for s in range(4):
        c = counts[s]
        if c:
            bit = 1 << (rank * 4 + s)
            one |= bit
            if c == 2:
                two |= bit
    return Cards(one, two)


def _stairs_candidates(
    held: int, k: int, suit: int, lengths: range, starts: range | None
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    """Stairs of ``suit`` from the ranks ``held`` (a bit per rank), the jokers filling only
    the missing ranks."""
    if held.bit_count() + k < lengths.start:
        return
    for length in lengths:
        full = (1 << length) - 1
        for start in starts if starts is not None else range(14 - length):
            if start + length > 13:
                break
            window = full << start
            present = held & window
            missing = length - present.bit_count()
            if missing > k or missing == length:
                continue
            one = every = 0
            named: list[Card] = []
            for r in range(start, start + length):
                bit = 1 << (r * 4 + suit)
                every |= bit
                if present >> r & 1:
                    one |= bit
                else:
                    named.append(r * 4 + suit)
            combo = Combo(STAIRS, start, length, 1 << (2 * suit), Cards(every), missing)
            yield make(Cards(one), missing), tuple(named), combo


def _responses(state: State) -> list[Move]:
    out: list[Move] = []
    if state.eight_from >= 0:
        for s in range(state.seats):
            if s != state.eight_from and s not in state.out:
                out.extend(_plays(state, s, respond=True))
    kill = state.rules.kill_card
    if state.kill_from >= 0 and kill is not None:
        card = from_list([kill])
        for s in range(state.seats):
            if s != state.kill_from and s not in state.out and state.counts[s] >= 2:
                hand = state.hands[s]
                if hand is not None and holds(hand, card):
                    out.append(Move(s, PLAY, card, (), -1, True))
    return out


def pending(state: State) -> tuple[Decision, ...]:
    """The decisions owed now (``target``, ``give``, ``discard``, ``destroy``, ``take``,
    ``double_back``, ``draw``)."""
    return tuple(
        Decision(o.seat, o.kind, o.size or o.amount, o.to if o.to >= 0 else None)
        for o in state.owed
    )


def to_move(state: State) -> tuple[int, ...]:
    """Every seat that may act now: the owed decisions' seats, else the turn and the seats
    that may answer out of turn."""
    if state.phase == PHASE_OVER:
        return ()
    if state.owed:
        return tuple(sorted({o.seat for o in state.owed}))
    seats = {state.turn}
    for move in _responses(state):
        seats.add(move.seat)
    # An unknown hand may hold an answer: its seat may act.
    for s in range(state.seats):
        if s in state.out or state.hands[s] is not None:
            continue
        if state.eight_from >= 0 and s != state.eight_from:
            seats.add(s)
        killing = state.kill_from >= 0 and state.rules.kill_card is not None
        if killing and s != state.kill_from and state.counts[s] >= 2:
            seats.add(s)
    return tuple(sorted(seats))


# --- results -------------------------------------------------------------------------------


def final_order(state: State) -> tuple[int, ...]:
    """Seats first place first: finishers in order, then (rule 24) the players still in by
    fewest cards, equal counts in seat order from the seat that had to draw."""
    n = state.seats
    rest = [s for s in range(n) if s not in state.out]
    start = state.forced_by if state.forced_by >= 0 else 0
    rest.sort(key=lambda s: (state.counts[s], (s - start) % n))
    return (*state.out, *rest)


def outcome(state: State) -> tuple[SeatResult, ...] | None:
    if state.phase != PHASE_OVER:
        return None
    titles = TITLES.get(state.seats)
    return tuple(
        SeatResult(
            seat,
            place + 1,
            None,
            None,
            {
                "title": titles[place] if titles else None,
                "forced_end": state.forced_end,
                "cards_left": state.counts[seat],
            },
        )
        for place, seat in enumerate(final_order(state))
    )


def placings(state: State) -> list[dict[str, object]]:
    results = outcome(state)
    if results is not None:
        return [{"seat": r.seat, "place": r.place, **r.detail} for r in results]
    return [{"seat": s, "place": i + 1} for i, s in enumerate(state.out)]


def observe(state: State, viewer: int | None = None) -> dict[str, object]:
    """What ``viewer`` (a seat, or ``None``: the public) may see: the viewer's own hand and the
    open hands (rule 6), never another hidden hand or the pile's order."""
    open_hands: dict[str, list[str]] = {}
    for s, hand in enumerate(state.hands):
        if state.opened >> s & 1 and hand is not None:
            open_hands[str(s)] = names(hand)
    view: dict[str, object] = {
        "phase": "over" if state.phase == PHASE_OVER else "play",
        "turn": state.turn if state.phase == PHASE_PLAY else None,
        "to_move": list(to_move(state)),
        "counts": list(state.counts),
        "open_hands": open_hands,
        "table": None
        if state.table is None
        else {
            "seat": state.last,
            "cards": names(state.table_cards),
            "combination": state.table.kind,
            "size": state.table.size,
        },
        "direction": state.direction,
        "revolution": state.revolution,
        "revolution_pending": state.rev_chain,
        "eleven_back": state.back,
        "lock": suit_letters(state.lock) if state.lock >= 0 else None,
        "pile": state.pile_count,
        "renewals": state.renewals,
        "discarded": len(state.discarded),
        "destroyed": len(state.destroyed),
        "passed": [s for s in range(state.seats) if state.passed >> s & 1],
        "out": list(state.out),
        "pending": [
            {"seat": o.seat, "kind": o.kind, "count": o.size or o.amount} for o in state.owed
        ],
        "forced_end": state.forced_end,
    }
    if viewer is not None and 0 <= viewer < state.seats:
        hand = state.hands[viewer]
        view["hand"] = None if hand is None else names(hand)
    return view


# --- records -------------------------------------------------------------------------------

SETUP_KEYS: Final = frozenset({"seats", "hands", "counts", "pile", "seed", "leader", "moves"})
MOVE_KEYS: Final = frozenset(
    {
        "seat",
        "play",
        "pass",
        "as",
        "respond",
        "choice",
        "give",
        "discard",
        "destroy",
        "take",
        "drew",
    }
)
_ACTIONS: Final = (PLAY, PASS, "choice", GIVE, DISCARD, DESTROY, TAKE, DREW)


@dataclass(frozen=True, slots=True)
class DaizaibatsuRecord:
    """A validated record: the set-up and the moves."""

    rules: DaizaibatsuRules
    hands: tuple[Cards | None, ...] | None
    counts: tuple[int, ...] | None
    pile: tuple[Card, ...] | None
    pile_given: bool
    seed: str | None
    leader: int | None
    moves: tuple[Move, ...]

    def initial_state(self) -> State:
        return new_game(
            self.rules,
            self.hands,
            counts=self.counts,
            pile=self.pile if self.pile_given else "deal",
            seed=self.seed,
            leader=self.leader,
        )

    def sections(self) -> tuple[tuple[str, tuple[Move, ...]], ...]:
        return (("moves", self.moves),)


def _card_list(value: object, key: str) -> Cards:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise form_error("expected a list of cards", "カードのリストです", key)
    try:
        return parse([_name(v, f"{key}[{i}]") for i, v in enumerate(value)])
    except InvalidNotation as exc:
        raise RecordError(
            str(exc), key=key, code="unknown_card", message_ja="不明なカードです"
        ) from None


def _name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{value!r} is not a card", key=key, code="unknown_card")
    return value


def move_from_json(value: object, key: str, seats: int = 4) -> Move:
    """A :class:`Move` from a record's move object (form only; see the README)."""
    value, seat, action = read_move_object(value, key, seats, MOVE_KEYS, _ACTIONS)
    if ("as" in value or "respond" in value) and action != PLAY:
        raise form_error(
            "'as' and 'respond' belong to a play", "'as'・'respond' は play にだけ付けます", key
        )
    if action == PASS:
        if value[PASS] is not True:
            raise form_error("pass must be true when present", "pass は true です", f"{key}.pass")
        return Move(seat, PASS)
    if action == "choice":
        choice = value["choice"]
        if choice == DOUBLE_BACK:
            return Move(seat, DOUBLE_BACK)
        if choice == ACCEPT:
            return Move(seat, ACCEPT)
        if isinstance(choice, dict) and set(choice) == {TARGET}:
            target = choice[TARGET]
            if type(target) is int and 0 <= target < seats:
                return Move(seat, TARGET, target=target)
        raise form_error(
            'choice is {"target": seat}, "double_back" or "accept"',
            'choice は {"target": 席}・"double_back"・"accept" です',
            f"{key}.choice",
        )
    cards = _card_list(value[action], f"{key}.{action}")
    if action != PLAY:
        return Move(seat, action, cards)
    if not cards:
        raise RecordError(
            "a play needs cards",
            key=f"{key}.play",
            code="invalid_combination",
            message_ja="カードを選んでください",
        )
    named: tuple[Card, ...] = ()
    if "as" in value:
        raw = value["as"]
        if not isinstance(raw, list) or not raw:
            raise form_error("'as' lists cards", "'as' はカードのリストです", f"{key}.as")
        as_cards = _card_list(raw, f"{key}.as")
        if jokers(as_cards):
            raise RecordError(
                "a joker never stands for a joker", key=f"{key}.as", code="bad_joker_assignment"
            )
        named = tuple(to_list(as_cards))
    respond = value.get("respond", False)
    if type(respond) is not bool:
        raise form_error(
            "respond is true or false", "respond は true か false です", f"{key}.respond"
        )
    return Move(seat, PLAY, cards, named, -1, respond)


def move_to_json(move: Move) -> dict[str, object]:
    if move.action == PASS:
        return {"seat": move.seat, "pass": True}
    if move.action == TARGET:
        return {"seat": move.seat, "choice": {"target": move.target}}
    if move.action in (DOUBLE_BACK, ACCEPT):
        return {"seat": move.seat, "choice": move.action}
    out: dict[str, object] = {"seat": move.seat, move.action: names(move.cards)}
    if move.as_:
        out["as"] = [card_name(c) for c in move.as_]
    if move.respond:
        out["respond"] = True
    return out


def load_record(obj: Mapping[str, object], rules: DaizaibatsuRules) -> DaizaibatsuRecord:
    """The 大財閥 part of a record (``seats``, ``hands``, ``counts``, ``pile``, ``seed``,
    ``leader``, ``moves``)."""
    try:
        rules.require_complete()
    except RulesError as exc:
        raise RecordError(str(exc), key="rules", code="invalid_rules") from None
    seats = obj.get("seats", rules.seats)
    if type(seats) is not int or seats != rules.seats:
        raise RecordError(f"{rules.key} is set for {rules.seats} seats", key="seats")
    seed = obj.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise RecordError("seed is a string", key="seed")
    raw_hands = obj.get("hands")
    hands: tuple[Cards | None, ...] | None = None
    if raw_hands is not None:
        if not isinstance(raw_hands, list) or len(raw_hands) != seats:
            raise RecordError(f"expected a list of {seats} hands", key="hands")
        hands = tuple(
            None if h is None else _card_list(h, f"hands[{i}]") for i, h in enumerate(raw_hands)
        )
    elif seed is None:
        raise RecordError("give the hands or a seed", key="hands")
    raw_counts = obj.get("counts")
    counts: tuple[int, ...] | None = None
    if raw_counts is not None:
        if not isinstance(raw_counts, list) or not all(
            type(c) is int and c >= 0 for c in raw_counts
        ):
            raise RecordError("counts are card counts", key="counts")
        counts = tuple(raw_counts)
    pile: tuple[Card, ...] | None = None
    pile_given = "pile" in obj
    if pile_given and obj["pile"] is not None:
        pile = tuple(to_list_ordered(obj["pile"]))
    leader = obj.get("leader")
    if leader is not None and (type(leader) is not int or not 0 <= leader < seats):
        raise RecordError(f"leader is a seat 0 … {seats - 1}", key="leader")
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("expected a list", key="moves")
    moves = tuple(move_from_json(m, f"moves[{i}]", seats) for i, m in enumerate(raw_moves))
    record = DaizaibatsuRecord(
        rules, hands, counts, pile, pile_given, seed, leader if type(leader) is int else None, moves
    )
    record.initial_state()
    return record


def to_list_ordered(value: object) -> list[Card]:
    """A pile's cards in the record's order (top first)."""
    if not isinstance(value, list):
        raise RecordError("the pile is a list of cards (top first) or null", key="pile")
    out: list[Card] = []
    for i, name in enumerate(value):
        try:
            out.append(to_list(parse([_name(name, f"pile[{i}]")]))[0])
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"pile[{i}]", code="unknown_card") from None
    return out


def export_record(start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
    setup = start.setup if isinstance(start, State) else start
    out: dict[str, object] = {
        "seats": setup.rules.seats,
        "hands": [None if h is None else names(h) for h in setup.hands],
    }
    if any(h is None for h in setup.hands):
        out["counts"] = list(setup.counts)
    out["pile"] = None if setup.pile is None else [card_name(c) for c in setup.pile]
    if setup.seed is not None:
        out["seed"] = setup.seed.decode("utf-8", "replace")
    if setup.leader is not None:
        out["leader"] = setup.leader
    out["moves"] = [move_to_json(m) for m in actions]
    return out


# --- snapshots -----------------------------------------------------------------------------

_SNAPSHOT_FIELDS: Final = tuple(f for f in State._fields if f != "setup")
_CARD_FIELDS: Final = frozenset(
    {"flowed", "discarded", "destroyed", "table_cards", "kill_cards", "recent", "take_pool"}
)


def snapshot(state: State) -> dict[str, object]:
    """The state without its set-up, as JSON-able data."""
    data: dict[str, object] = {}
    for name in _SNAPSHOT_FIELDS:
        value = getattr(state, name)
        if isinstance(value, Cards):
            data[name] = names(value)
        elif name == "table":
            data[name] = (
                None if value is None else [value.kind, names(value.reading), value.joker_count]
            )
        elif name in ("hands", "given"):
            data[name] = [None if h is None else names(h) for h in value]
        elif name in ("queue", "owed"):
            data[name] = [list(item) for item in value]
        elif isinstance(value, tuple):
            data[name] = list(value)
        else:
            data[name] = value
    return data


def restore(setup: Setup, data: Mapping[str, object]) -> State:
    """A state from :func:`snapshot`'s data and the set-up; raises ``SnapshotError``."""
    if set(data) != set(_SNAPSHOT_FIELDS):
        raise SnapshotError("not a Daizaibatsu snapshot (its fields differ)")
    try:
        values: dict[str, object] = {}
        for name in _SNAPSHOT_FIELDS:
            raw = data[name]
            if name in _CARD_FIELDS:
                assert isinstance(raw, list)
                values[name] = parse(raw)
            elif name == "table":
                if raw is None:
                    values[name] = None
                else:
                    assert isinstance(raw, list) and len(raw) == 3
                    kind, reading, k = raw
                    assert isinstance(reading, list) and type(k) is int
                    combo = jokers_alone(k) if kind == JOKERS else classify(parse(reading), k)
                    assert combo is not None
                    values[name] = combo
            elif name in ("hands", "given"):
                assert isinstance(raw, list)
                values[name] = tuple(None if h is None else parse(h) for h in raw)
            elif name == "queue":
                assert isinstance(raw, list)
                values[name] = tuple(Step(*item) for item in raw)
            elif name == "owed":
                assert isinstance(raw, list)
                values[name] = tuple(Owed(*item) for item in raw)
            elif name == "pile":
                values[name] = None if raw is None else tuple(raw)  # type: ignore[arg-type]
            elif isinstance(raw, list):
                assert all(type(v) is int for v in raw)
                values[name] = tuple(raw)
            else:
                assert type(raw) in (int, bool)
                values[name] = raw
        return State(setup, **values)  # type: ignore[arg-type]
    except (AssertionError, InvalidNotation, ValueError, TypeError) as exc:
        raise SnapshotError(f"not a Daizaibatsu snapshot: {exc}") from None


# --- the family ----------------------------------------------------------------------------


class DaizaibatsuFamily:
    """大財閥 behind the :class:`~games.engine.family.Family` interface."""

    name: Final = FAMILY
    presets: Final[Mapping[str, DaizaibatsuRules]] = PRESETS
    record_keys: Final = SETUP_KEYS
    metrics: Final = (
        Metric("daifugo", "title", "daifugo"),
        Metric("fugo", "title", "fugo"),
        Metric("heimin", "title", "heimin"),
        Metric("hinmin", "title", "hinmin"),
        Metric("daihinmin", "title", "daihinmin", FEWER),
        Metric("forced_ends", "forced_end", True, FEWER),
    )

    def ruleset(self, value: object) -> DaizaibatsuRules:
        return ruleset_from_record(value)

    def new_game(self, rules: DaizaibatsuRules, **setup: object) -> State:
        hands = setup.pop("hands", None)
        return new_game(rules, hands, **setup)  # type: ignore[arg-type]

    def legal_moves(self, state: State) -> Iterator[Move]:
        return legal_moves(state)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[DaizaibatsuEvent, ...]]:
        return apply(state, move)

    def pending(self, state: State) -> tuple[Decision, ...]:
        return pending(state)

    def to_move(self, state: State) -> tuple[int, ...]:
        return to_move(state)

    def is_over(self, state: State) -> bool:
        return state.phase == PHASE_OVER

    def observe(self, state: State, viewer: int | None = None) -> dict[str, object]:
        return observe(state, viewer)

    def outcome(self, state: State) -> tuple[SeatResult, ...] | None:
        return outcome(state)

    def placings(self, state: State) -> list[dict[str, object]]:
        return placings(state)

    def load_record(self, obj: Mapping[str, object], rules: DaizaibatsuRules) -> DaizaibatsuRecord:
        return load_record(obj, rules)

    def export_record(self, start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
        return export_record(start, actions)

    def move_from_json(self, value: object, key: str, seats: int) -> Move:
        return move_from_json(value, key, seats)

    def move_to_json(self, move: Move) -> dict[str, object]:
        return move_to_json(move)

    def deal(self, seed: bytes | str, rules: DaizaibatsuRules) -> DaizaibatsuDeal:
        return deal(seed, rules)

    def snapshot(self, state: State) -> dict[str, object]:
        return snapshot(state)

    def restore(self, setup: Setup, data: Mapping[str, object]) -> State:
        return restore(setup, data)


DAIZAIBATSU_FAMILY: Final = DaizaibatsuFamily()
register(DAIZAIBATSU_FAMILY)

__all__ = [
    "DAIZAIBATSU",
    "DAIZAIBATSU_FAMILY",
    "SWITCHES",
    "Combo",
    "DaizaibatsuRules",
    "Move",
    "State",
    "apply",
    "deal",
    "legal_moves",
    "new_game",
    "observe",
    "pending",
]
