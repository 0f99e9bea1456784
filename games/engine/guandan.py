"""The 掼蛋 (Guandan) family: a partnership climbing game with levels, wilds and tribute.

Four seats, two packs (108 cards, 27 each), partners facing: seats 0 and 2 are team 0, seats 1
and 3 team 1. Seat numbers follow the direction of play (counterclockwise at the table), so the
seat after ``s`` is ``(s + 1) % 4`` and ``s``'s partner is ``(s + 2) % 4``.

One hand is one game here. What a match carries from hand to hand — each team's level, the
failed attempts at A, the previous hand's finishing order (which decides the level played, the
declaring team and the tribute) — is a :class:`Match`, an input of :func:`new_game` and part of
the record; :func:`next_match` gives the next hand's. A service chains hands with it::

    >>> rules = find_guandan("guandan-cn")
    >>> hands = deal_hands("example", rules)
    >>> state = new_game(rules, hands, leader=0)
    >>> state.level, format_level(state.level), len(state.hands[0])
    (2, '2', 27)

Cards are :class:`~games.engine.multideck.Cards` (two masks). The level rank ranks between A
and the small joker; the two heart level cards are wild (逢人配): a play that contains one carries
``wild_as``, the cards the wilds stand for, wherever the reading is not the only one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from itertools import combinations_with_replacement, product
from typing import Final, NamedTuple

from .cards import RANKS, SUITS, Card
from .deal import deal_multi
from .errors import IllegalMove, InvalidNotation, RecordError, RulesError
from .events import Event
from .family import (
    Decision,
    Metric,
    SeatResult,
    SwitchInfo,
    find_preset,
    form_error,
    preset_from_record,
    read_move_object,
    register,
)
from .multideck import (
    BIG_JOKER,
    DOUBLE_DECK,
    EMPTY,
    SMALL_JOKER,
    Cards,
    multi_card_name,
    multi_names,
    parse_multi,
    parse_multi_card,
)
from .snapshot import SnapshotError

FAMILY: Final = "guandan"
SEATS: Final = 4
HAND_SIZE: Final = 27
ACE: Final = 14
"""Levels and natural values are 2…14 (A = 14); an A played low in a run counts as 1."""

PHASE_TRIBUTE: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("tribute", "play", "over")

# --- ruleset -------------------------------------------------------------------------------

TIE_SEAT_ORDER: Final = "seat_order"
TIE_FIRST_CHOOSES: Final = "first_chooses"
RETURN_TEN_OR_LOWER: Final = "ten_or_lower"
RETURN_ANY: Final = "any"

SWITCHES: Final[Mapping[str, tuple[tuple[object, ...], str]]] = {
    "tribute_tie": (
        (TIE_SEAT_ORDER, TIE_FIRST_CHOOSES),
        "two equal tribute cards: the payer nearer first place in the direction of play gives "
        "to first place (seat_order), or first place chooses (first_chooses)",
    ),
    "return_limit": (
        (RETURN_TEN_OR_LOWER, RETURN_ANY),
        "the returned card: at most 10 in level order, else the lowest card (ten_or_lower), or "
        "any card (any); never the card just received",
    ),
    "a_failure_limit": (
        (0, 1, 2, 3, 4, 5),
        "failed attempts at A as the declaring team after which the team goes back to level 2 "
        "(0: never)",
    ),
    "aces_finish_demotes": (
        (True, False),
        "while a team at A declares, an opponent going out first with a final play of aces "
        "only sends the A team back to level 2",
    ),
}


@dataclass(frozen=True, slots=True)
class GuandanRules:
    """A Guandan ruleset: the family's switches (:data:`SWITCHES`) under a preset's name."""

    id: str
    version: int
    name: str
    tribute_tie: str = TIE_SEAT_ORDER
    return_limit: str = RETURN_TEN_OR_LOWER
    a_failure_limit: int = 3
    aces_finish_demotes: bool = False
    family: str = FAMILY
    seats: int = SEATS

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"

    def switches(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in SWITCHES}

    def unset_switches(self) -> tuple[str, ...]:
        """Every Guandan switch has a default: none is ever unset."""
        return ()

    def describe_switches(self) -> tuple[SwitchInfo, ...]:
        """Every switch of :data:`SWITCHES` (all of them finite), the preset's value and this
        ruleset's."""
        preset = PRESETS.get(self.key, self)
        return tuple(
            SwitchInfo(name, doc, allowed, getattr(preset, name), getattr(self, name))
            for name, (allowed, doc) in SWITCHES.items()
        )

    def to_record(self) -> str | dict[str, object]:
        """The preset's key, or ``{"preset", "overrides"}`` when switches differ from it."""
        preset = PRESETS.get(self.key)
        if preset == self:
            return self.key
        base = preset.switches() if preset is not None else {}
        changed = {k: v for k, v in self.switches().items() if base.get(k) != v}
        return {"preset": self.key, "overrides": changed}

    def with_overrides(self, **overrides: object) -> GuandanRules:
        for name, value in overrides.items():
            if name not in SWITCHES:
                raise RulesError(f"unknown Guandan switch {name!r} (known: {', '.join(SWITCHES)})")
            allowed = SWITCHES[name][0]
            if type(value) is not type(allowed[0]) or value not in allowed:
                raise RulesError(f"{name} must be one of {list(allowed)}, got {value!r}")
        return replace(self, **overrides)  # type: ignore[arg-type]


GUANDAN_CN: Final = GuandanRules(
    "guandan-cn",
    1,
    "竞技掼蛋 Guandan competition rules",
    tribute_tie=TIE_SEAT_ORDER,
    return_limit=RETURN_TEN_OR_LOWER,
    a_failure_limit=3,
    aces_finish_demotes=False,
)
GUANDAN_PAGAT: Final = GuandanRules(
    "guandan-pagat",
    1,
    "掼蛋 Guandan (pagat.com)",
    tribute_tie=TIE_FIRST_CHOOSES,
    return_limit=RETURN_ANY,
    a_failure_limit=3,
    aces_finish_demotes=True,
)
PRESETS: Final[Mapping[str, GuandanRules]] = {r.key: r for r in (GUANDAN_CN, GUANDAN_PAGAT)}


def find_guandan(name: str) -> GuandanRules:
    """A Guandan preset by ``id`` (the latest version) or ``id@version``."""
    return find_preset(PRESETS, name, "Guandan")


def ruleset_from_record(value: object) -> GuandanRules:
    """A ruleset from a record's ``rules``: a preset name or ``{"preset", "overrides"}``."""
    return preset_from_record(value, PRESETS, "Guandan")


# --- cards, ranks and levels -------------------------------------------------------------

# cards.py numbers ranks 3…A, 2 as 0…12; Guandan reads their natural values 3…14, 2.
VALUE_OF_RANK: Final = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
RANK_OF_VALUE: Final = {v: r for r, v in enumerate(VALUE_OF_RANK)} | {1: 11}
HEARTS: Final = SUITS.index("H")
LEVEL_NAMES: Final = {v: ("10" if v == 10 else RANKS[RANK_OF_VALUE[v]]) for v in range(2, 15)}
SMALL_JOKER_STRENGTH: Final = 16
BIG_JOKER_STRENGTH: Final = 17


def format_level(level: int) -> str:
    """``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``."""
    return LEVEL_NAMES[level]


def parse_level(text: object) -> int:
    """A level from its name (``"10"`` or ``"T"``, ``"A"`` …) or number 2…14."""
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= ACE:
        return text
    if isinstance(text, str):
        name = text.strip().upper()
        name = "T" if name == "10" else name
        if len(name) == 1 and name in RANKS:
            return VALUE_OF_RANK[RANKS.index(name)]
    raise InvalidNotation(f"{text!r} is not a level (2 … 10, J, Q, K, A)")


def value_of(card: Card) -> int:
    """The natural value of a number card (2…14, A = 14)."""
    return VALUE_OF_RANK[card >> 2]


def wild_card(level: int) -> Card:
    """The heart level card (逢人配): both copies are wild."""
    return RANK_OF_VALUE[level] * 4 + HEARTS


def strength(card: Card, level: int) -> int:
    """A card's rank in level order: 2…14 (A), the level rank 15, 小王 16, 大王 17."""
    if card == SMALL_JOKER:
        return SMALL_JOKER_STRENGTH
    if card == BIG_JOKER:
        return BIG_JOKER_STRENGTH
    value = VALUE_OF_RANK[card >> 2]
    return 15 if value == level else value


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % SEATS


def _cards_of(cards: Sequence[Card]) -> Cards:
    """The multiset of a few card numbers, each at most twice (built without checks)."""
    one = two = 0
    for card in cards:
        bit = 1 << card
        if one & bit:
            two |= bit
        one |= bit
    return Cards(one, two)


def _without(cards: Cards, card: Card, copies: int) -> list[Card]:
    """``cards`` as a list, ``copies`` copies of ``card`` left out."""
    out = list(cards)
    for _ in range(copies):
        out.remove(card)
    return out


# --- combinations --------------------------------------------------------------------------

SINGLE: Final = "single"
PAIR: Final = "pair"
TRIPLE: Final = "triple"
FULL_HOUSE: Final = "full_house"  # 三带二
STRAIGHT: Final = "straight"  # 顺子
TUBE: Final = "tube"  # 三连对
PLATE: Final = "plate"  # 钢板
BOMB: Final = "bomb"  # 4–10 of a kind
STRAIGHT_FLUSH: Final = "straight_flush"  # 同花顺
JOKER_BOMB: Final = "joker_bomb"  # 四大天王
KINDS: Final = (
    SINGLE,
    PAIR,
    TRIPLE,
    FULL_HOUSE,
    STRAIGHT,
    TUBE,
    PLATE,
    BOMB,
    STRAIGHT_FLUSH,
    JOKER_BOMB,
)
_SAME_RANK_KINDS: Final = {1: SINGLE, 2: PAIR, 3: TRIPLE}


def _bomb_tier(kind: str, size: int) -> int:
    """The bomb ladder: 4 < 5 of a kind < straight flush < 6 < 7 < 8 < 9 < 10 < four jokers;
    -1 for an ordinary combination."""
    if kind == BOMB:
        return size - 4 if size < 6 else size - 3
    if kind == STRAIGHT_FLUSH:
        return 2
    if kind == JOKER_BOMB:
        return 8
    return -1


@dataclass(frozen=True, slots=True)
class Combo:
    """What a play is: its ``kind``, card count and ``key`` (the strength it compares by).

    ``key`` is the level-order strength of the rank (singles … bombs; a full house's triple)
    or the natural value of a run's lowest card (straights, tubes, plates; an A low is 1).
    """

    kind: str
    key: int
    size: int
    tier: int = field(default=-1, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tier", _bomb_tier(self.kind, self.size))

    @property
    def is_bomb(self) -> bool:
        return self.tier >= 0

    def beats(self, table: Combo) -> bool:
        """Rule 7: same kind and size, strictly higher; any bomb beats an ordinary play; a
        bomb only a higher bomb. A tie never beats."""
        if self.tier >= 0:
            return table.tier < 0 or (self.tier, self.key) > (table.tier, table.key)
        return table.tier < 0 and self.kind == table.kind and self.key > table.key

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "key": self.key, "size": self.size}


_COMBO_SHAPES: Final = (
    *((kind, size) for size, kind in _SAME_RANK_KINDS.items()),
    *((BOMB, size) for size in range(4, 11)),
    (FULL_HOUSE, 5),
    (STRAIGHT, 5),
    (STRAIGHT_FLUSH, 5),
    (TUBE, 6),
    (PLATE, 6),
    (JOKER_BOMB, 4),
)
_COMBOS: Final[Mapping[tuple[str, int, int], Combo]] = {
    (kind, key, size): Combo(kind, key, size)
    for kind, size in _COMBO_SHAPES
    for key in range(BIG_JOKER_STRENGTH + 1)
}
"""Every combination move generation can name, built once at import (a few hundred values):
a constant table, so generation shares them instead of building thousands."""


def _combo(kind: str, key: int, size: int) -> Combo:
    """The one :class:`Combo` value of a kind, key and size."""
    return _COMBOS[(kind, key, size)]


def _run_start(values: Sequence[int], length: int) -> int | None:
    """The lowest value of ``length`` distinct consecutive values, an A high or low (no wrap)."""
    if len(values) != length:
        return None
    low, high = min(values), max(values)
    if high - low == length - 1:
        return low
    if ACE in values:
        lows = [1 if v == ACE else v for v in values]
        if max(lows) - min(lows) == length - 1:
            return 1
    return None


def classify(cards: Sequence[Card], level: int) -> Combo | None:
    """The combination of cards read as they are (wilds already replaced by what they stand
    for, so a card may appear more than twice); ``None`` if they make none."""
    size = len(cards)
    if not size:
        return None
    if max(cards) >= SMALL_JOKER:
        return _classify_with_jokers(cards, level)
    counts: dict[int, int] = {}
    suits = 0
    for card in cards:
        value = VALUE_OF_RANK[card >> 2]
        counts[value] = counts.get(value, 0) + 1
        suits |= 1 << (card & 3)
    if len(counts) == 1:
        value = next(iter(counts))
        rank = 15 if value == level else value
        if size <= 3:
            return Combo(_SAME_RANK_KINDS[size], rank, size)
        return Combo(BOMB, rank, size) if size <= 10 else None
    values = list(counts)
    if size == 5:
        if len(counts) == 2 and sorted(counts.values()) == [2, 3]:
            triple = next(v for v, n in counts.items() if n == 3)
            return Combo(FULL_HOUSE, 15 if triple == level else triple, 5)
        start = _run_start(values, 5)
        if start is not None:
            # E6: five suited consecutive cards are always a straight flush.
            return Combo(STRAIGHT_FLUSH if suits.bit_count() == 1 else STRAIGHT, start, 5)
        return None
    if size == 6 and set(counts.values()) == {2} and len(counts) == 3:
        start = _run_start(values, 3)
        return None if start is None else Combo(TUBE, start, 6)
    if size == 6 and set(counts.values()) == {3} and len(counts) == 2:
        start = _run_start(values, 2)
        return None if start is None else Combo(PLATE, start, 6)
    return None


def _classify_with_jokers(cards: Sequence[Card], level: int) -> Combo | None:
    jokers = sorted(c for c in cards if c >= SMALL_JOKER)
    others = [c for c in cards if c < SMALL_JOKER]
    size = len(cards)
    if size == 1:
        return Combo(SINGLE, strength(jokers[0], level), 1)
    if size == 2 and jokers[0] == jokers[-1] and not others:
        return Combo(PAIR, strength(jokers[0], level), 2)  # SJ+BJ is no pair (GD-T11)
    if size == 4 and jokers == [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]:
        return Combo(JOKER_BOMB, 0, 4)
    if size == 5 and len(jokers) == 2 and jokers[0] == jokers[1]:
        triple = classify(others, level)  # E5: a joker pair is a full house's pair
        if triple is not None and triple.kind == TRIPLE:
            return Combo(FULL_HOUSE, triple.key, 5)
    return None


def readings(cards: Cards, level: int) -> dict[Combo, tuple[Card, ...]]:
    """Every distinct combination the selection can be read as, each with one declaration
    (what its wilds stand for, in card order) that gives it (rule 4, E8).

    Alone, a wild is a level card and two wilds are a pair of level cards."""
    wild = wild_card(level)
    wilds = cards.count(wild)
    naturals = _without(cards, wild, wilds)
    if not wilds:
        combo = classify(naturals, level)
        return {} if combo is None else {combo: ()}
    if not naturals:
        return {Combo(_SAME_RANK_KINDS[wilds], 15, wilds): (wild,) * wilds}
    found: dict[Combo, tuple[Card, ...]] = {}
    for targets in combinations_with_replacement(range(SMALL_JOKER), wilds):
        combo = classify(naturals + list(targets), level)
        if combo is not None and combo not in found:
            found[combo] = targets
    return found


def read_declared(cards: Cards, wild_as: Sequence[Card], level: int) -> Combo | None:
    """The combination ``cards`` make with each wild standing for the card ``wild_as`` gives
    (one per wild; a wild may stand for itself); ``None`` if the declaration does not fit."""
    wild = wild_card(level)
    wilds = cards.count(wild)
    if len(wild_as) != wilds or any(not 0 <= t < SMALL_JOKER for t in wild_as):
        return None
    naturals = _without(cards, wild, wilds)
    if not naturals and any(t != wild for t in wild_as):
        return None  # alone, wilds are level cards
    return classify(naturals + list(wild_as), level)


# --- match state ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """What a match carries into a hand: each team's level, failed attempts at A as the
    declaring team, and the previous hand's finishing order (seats, first place first; for
    a 1-2 finish the two losers in either order), ``None`` for the match's first hand.

    ``declaring`` names the declaring team of a hand without a previous one (a match taken
    up part way, a puzzle position): its level is played and no tribute is paid. With
    ``previous`` the declaring team is the first finisher's."""

    levels: tuple[int, int] = (2, 2)
    failures: tuple[int, int] = (0, 0)
    previous: tuple[int, ...] | None = None
    declaring: int | None = None

    @property
    def declarer(self) -> int | None:
        """The team whose level is played: its player finished first last hand."""
        return self.declaring if self.previous is None else team_of(self.previous[0])

    @property
    def level(self) -> int:
        """The level this hand is played at (the first hand of a match at 2)."""
        declarer = self.declarer
        return 2 if declarer is None else self.levels[declarer]

    def to_record(self) -> dict[str, object]:
        out: dict[str, object] = {
            "levels": [format_level(v) for v in self.levels],
            "failures": list(self.failures),
        }
        if self.previous is not None:
            out["previous"] = list(self.previous)
        elif self.declaring is not None:
            out["declarer"] = self.declaring
        return out


def _check_match(match: Match) -> None:
    if any(not 2 <= v <= ACE for v in match.levels):
        raise RecordError("two levels, each 2 … A", key="match.levels")
    if any(not 0 <= f <= 99 for f in match.failures):
        raise RecordError("two counts of failed attempts at A", key="match.failures")
    if match.previous is not None and sorted(match.previous) != list(range(SEATS)):
        raise RecordError(
            "the previous finishing order lists every seat once", key="match.previous"
        )


def finish_of(order: Sequence[int]) -> str:
    """``1-2``, ``1-3`` or ``1-4``: where the first finisher's partner finished."""
    first_partner = partner(order[0])
    place = list(order).index(first_partner) + 1 if first_partner in order[:3] else 4
    return f"1-{place}"


LEVEL_GAIN: Final = {"1-2": 3, "1-3": 2, "1-4": 1}
"""Rule 10 (E1): the first finisher's team goes up by its partner's place."""


# --- moves and events ----------------------------------------------------------------------

PLAY: Final = "play"
PASS: Final = "pass"
TRIBUTE: Final = "tribute"  # 进贡
RETURN: Final = "return"  # 还贡
TAKE: Final = "take"


class Move(NamedTuple):
    """A play, a pass, or a tribute decision (``tribute``, ``return``, ``take``).

    ``wild_as`` declares what each wild in ``cards`` stands for (card numbers, card order);
    ``source`` is the payer whose tribute first place takes (``take``). An immutable value
    (a named tuple: move generation builds thousands per hand)."""

    seat: int
    action: str = PLAY
    cards: Cards = EMPTY
    wild_as: tuple[Card, ...] = ()
    source: int = -1

    @staticmethod
    def play(seat: int, cards: str | Cards, wild_as: str | Sequence[Card] = ()) -> Move:
        """``Move.play(0, "3S 4H 2H 6D 7C", wild_as="5D")``."""
        held = parse_multi(cards) if isinstance(cards, str) else cards
        targets = _parse_targets(wild_as.split()) if isinstance(wild_as, str) else wild_as
        return Move(seat, PLAY, held, tuple(sorted(targets)))

    @staticmethod
    def pass_turn(seat: int) -> Move:
        return Move(seat, PASS)

    @staticmethod
    def tribute(seat: int, card: str) -> Move:
        return Move(seat, TRIBUTE, parse_multi(card))

    @staticmethod
    def give_back(seat: int, card: str) -> Move:
        return Move(seat, RETURN, parse_multi(card))

    @staticmethod
    def take(seat: int, source: int) -> Move:
        return Move(seat, TAKE, source=source)


def _parse_targets(names: Sequence[object]) -> tuple[Card, ...]:
    """What the wilds stand for, read like every other card of this game (``SJ`` and ``BJ``
    are the jokers, never ♠J). A joker is a well-formed declaration that the rules refuse
    when the move is judged (``bad_wild_declaration``), not a notation error."""
    return tuple(sorted(parse_multi_card(name) for name in names))


@dataclass(frozen=True, slots=True)
class GuandanEvent(Event):
    """An event of a Guandan hand: ``what`` is its kind (``played``, ``passed``,
    ``trick_cleared``, ``jiefeng``, ``finished``, ``game_over``, ``tribute_paid``,
    ``tribute_received``, ``tribute_returned``, ``tribute_done``); the other fields are
    those the kind uses."""

    what: str
    seat: int = -1
    cards: Cards = EMPTY
    to: int = -1
    combo: Combo | None = None
    wild_as: tuple[Card, ...] = ()
    place: int = 0
    order: tuple[int, ...] = ()

    @property
    def kind(self) -> str:
        return self.what

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.what}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = multi_names(self.cards)
        if self.to >= 0:
            out["to"] = self.to
        if self.combo is not None:
            out["combination"] = self.combo.kind
        if self.wild_as:
            out["as"] = [multi_card_name(c) for c in self.wild_as]
        if self.place:
            out["place"] = self.place
        if self.order:
            out["order"] = list(self.order)
        return out


# --- set-up and state ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    """What a hand starts from: rules, the dealt hands, the match and what follows from it
    (level, wild card, the tribute's payers and receivers, anti-tribute)."""

    rules: GuandanRules
    hands: tuple[Cards, ...]
    match: Match
    leader: int | None
    level: int
    wild: Card
    payers: tuple[int, ...]
    receivers: tuple[int, ...]
    anti_tribute: bool


@dataclass(frozen=True, slots=True)
class State:
    """A Guandan hand's state: an immutable value.

    ``paid`` is each seat's tribute card (-1: none), ``gets`` the seat each payer's card went
    to (-1: not yet), ``returned`` each receiver's returned card; ``last`` is the seat whose
    play is on the table, ``passed`` a bit per seat that passed since it; ``out`` the seats
    out, in order; ``first_out`` the first finisher's final play (pagat's aces rule)."""

    setup: Setup
    phase: int
    turn: int
    hands: tuple[Cards, ...]
    played: Cards = EMPTY
    table: Combo | None = None
    table_cards: Cards = EMPTY
    table_as: tuple[Card, ...] = ()
    last: int = -1
    passed: int = 0
    out: tuple[int, ...] = ()
    paid: tuple[Card, ...] = (-1, -1, -1, -1)
    gets: tuple[int, ...] = (-1, -1, -1, -1)
    returned: tuple[Card, ...] = (-1, -1, -1, -1)
    leader: int = -1
    first_out: Cards = EMPTY

    @property
    def rules(self) -> GuandanRules:
        return self.setup.rules

    @property
    def level(self) -> int:
        return self.setup.level

    @property
    def seats(self) -> int:
        return SEATS

    def in_hand(self, seat: int) -> bool:
        return seat not in self.out


def _illegal(code: str, en: str, ja: str, rule: str) -> IllegalMove:
    return IllegalMove(code, en, ja, f"Guandan {rule}")


def _hand(value: object, seat: int) -> Cards:
    if isinstance(value, Cards):
        return value
    if isinstance(value, str | list):
        try:
            return parse_multi(value)
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"hands[{seat}]", code="unknown_card") from None
    raise RecordError("a hand is a list of cards", key=f"hands[{seat}]")


def new_game(
    rules: GuandanRules,
    hands: Sequence[Cards | str | list[str]],
    *,
    match: Match | None = None,
    leader: int | None = None,
) -> State:
    """A hand from the dealt ``hands`` (four, 27 cards each, two packs together; a position
    set up for a puzzle or a test may give fewer) and the ``match`` carried over.

    Without a previous hand (the match's first, or ``Match.declaring``) ``leader`` is
    needed (drawn by the cut, or at random online); after one, the tribute decides who
    leads."""
    match = match or Match()
    _check_match(match)
    if len(hands) != SEATS:
        raise RecordError(f"expected {SEATS} hands", key="hands")
    dealt = _dealt(hands)
    if match.previous is None:
        if leader is None:
            raise RecordError("the first hand of a match needs a leader", key="leader")
        if not 0 <= leader < SEATS:
            raise RecordError("leader is a seat 0 … 3", key="leader")
    elif leader is not None:
        raise RecordError("after the first hand the tribute decides who leads", key="leader")
    level = match.level
    payers, receivers = _tribute_seats(match.previous)
    big_jokers = sum(dealt[p].count(BIG_JOKER) for p in payers)
    anti = bool(payers) and big_jokers == 2  # rule 13: 抗贡
    setup = Setup(rules, dealt, match, leader, level, wild_card(level), payers, receivers, anti)
    if payers and not anti:
        return State(setup, PHASE_TRIBUTE, -1, dealt)
    first = leader if match.previous is None else match.previous[0]
    assert first is not None
    return State(setup, PHASE_PLAY, first, dealt, leader=first)


def _dealt(hands: Sequence[Cards | str | list[str]]) -> tuple[Cards, ...]:
    """The dealt hands, checked: 1 … 27 cards each, no card more than twice in all."""
    dealt = tuple(_hand(h, i) for i, h in enumerate(hands))
    total = EMPTY
    for seat, hand in enumerate(dealt):
        if not 1 <= len(hand) <= HAND_SIZE:
            raise RecordError(
                f"a hand has 1 … {HAND_SIZE} cards, not {len(hand)}", key=f"hands[{seat}]"
            )
        try:
            total = total + hand
        except ValueError:
            raise RecordError(
                "the hands hold more than two copies of a card", key=f"hands[{seat}]"
            ) from None
    return dealt


def _tribute_seats(previous: tuple[int, ...] | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rule 12: after 1-3 / 1-4 last place pays first; after 1-2 both losers pay."""
    if previous is None:
        return (), ()
    if finish_of(previous) == "1-2":
        return (previous[2], previous[3]), (previous[0], previous[1])
    return (previous[3],), (previous[0],)


# --- the tribute ---------------------------------------------------------------------------


def _kinds(hand: Cards) -> Iterator[Card]:
    one = hand.one
    while one:
        low = one & -one
        yield low.bit_length() - 1
        one ^= low


def tribute_options(state: State, seat: int) -> list[Card]:
    """The cards ``seat`` may pay: its highest cards other than a wild (rule 12)."""
    hand = state.hands[seat]
    wild = state.setup.wild
    candidates = [c for c in _kinds(hand) if c != wild]
    if not candidates:
        return []
    top = max(strength(c, state.level) for c in candidates)
    return [c for c in candidates if strength(c, state.level) == top]


def return_options(state: State, seat: int) -> list[Card]:
    """The cards a receiver may give back (rule 12, E3): never the card just received;
    ``ten_or_lower``: a card of 10 or lower in level order, else the lowest card."""
    received = next(state.paid[p] for p in range(SEATS) if state.gets[p] == seat)
    level = state.level
    candidates = [c for c in _kinds(state.hands[seat]) if c != received]
    if state.rules.return_limit == RETURN_ANY or not candidates:
        return candidates
    low = [c for c in candidates if strength(c, level) <= 10]
    if low:
        return low
    bottom = min(strength(c, level) for c in candidates)
    return [c for c in candidates if strength(c, level) == bottom]


def _allocate(state: State, events: list[GuandanEvent], first_takes: int = -1) -> State:
    """Give the paid cards to the receivers once every payer has paid (rule 12, E4)."""
    setup = state.setup
    level = state.level
    first = setup.receivers[0]
    payers = setup.payers
    order: tuple[int, ...]
    if len(payers) == 1:
        order = payers
    else:
        a, b = payers
        sa, sb = strength(state.paid[a], level), strength(state.paid[b], level)
        if sa != sb:
            order = (a, b) if sa > sb else (b, a)
        elif first_takes >= 0:
            order = (first_takes, b if first_takes == a else a)
        elif state.rules.tribute_tie == TIE_FIRST_CHOOSES:
            return state  # first place decides with a ``take``
        else:
            # E4 (cn): the payer reached first in the direction of play from first place.
            order = tuple(sorted(payers, key=lambda p: (p - first) % SEATS))
    hands = list(state.hands)
    gets = list(state.gets)
    for payer, receiver in zip(order, setup.receivers, strict=False):
        card = state.paid[payer]
        hands[receiver] = hands[receiver] + _cards_of([card])
        gets[payer] = receiver
        events.append(GuandanEvent("tribute_received", receiver, _cards_of([card]), payer))
    # Rule 14: the payer whose card went to first place leads.
    return replace(state, hands=tuple(hands), gets=tuple(gets), leader=order[0])


def _apply_tribute(state: State, move: Move) -> tuple[State, tuple[GuandanEvent, ...]]:
    seat = move.seat
    setup = state.setup
    events: list[GuandanEvent] = []
    rule = "rule 12 tribute"
    if move.action == TRIBUTE:
        if seat not in setup.payers or state.paid[seat] >= 0:
            raise _illegal(
                "tribute_invalid", "this seat owes no tribute now", "この席は進貢しません", rule
            )
        card = _one_card(move, "a tribute is one card", "進貢は1枚です", rule)
        if card not in state.hands[seat]:
            raise _illegal("card_not_in_hand", "card not in hand", "持っていないカードです", rule)
        if card not in tribute_options(state, seat):
            raise _illegal(
                "tribute_invalid",
                "the tribute is the highest card other than a wild",
                "進貢は逢人配以外で最も強いカードです",
                rule,
            )
        paid = list(state.paid)
        paid[seat] = card
        hands = list(state.hands)
        hands[seat] = hands[seat] - _cards_of([card])
        state = replace(state, paid=tuple(paid), hands=tuple(hands))
        events.append(GuandanEvent("tribute_paid", seat, _cards_of([card])))
        if all(state.paid[p] >= 0 for p in setup.payers):
            state = _allocate(state, events)
        return state, tuple(events)
    if move.action == TAKE:
        payers = setup.payers
        waiting = len(payers) == 2 and all(state.paid[p] >= 0 for p in payers) and state.leader < 0
        if not waiting or seat != setup.receivers[0] or move.source not in payers:
            raise _illegal(
                "tribute_invalid",
                "first place takes one of two equal tributes, naming its payer",
                "同じ強さの進貢2枚から、1位が払った席を指定して受け取ります",
                "rule 12 equal tributes",
            )
        state = _allocate(state, events, first_takes=move.source)
        return state, tuple(events)
    # RETURN
    payer = next((p for p in range(SEATS) if state.gets[p] == seat), -1)
    if payer < 0 or state.returned[seat] >= 0:
        raise _illegal(
            "tribute_invalid", "this seat owes no card back now", "この席は還貢しません", "rule 12"
        )
    card = _one_card(move, "a return is one card", "還貢は1枚です", "rule 12 return")
    if card not in state.hands[seat]:
        raise _illegal("card_not_in_hand", "card not in hand", "持っていないカードです", rule)
    if card not in return_options(state, seat):
        raise _illegal(
            "tribute_invalid",
            "the card given back must not be the one received"
            + (
                ", and ranks 10 or lower (else the lowest card)"
                if state.rules.return_limit == RETURN_TEN_OR_LOWER
                else ""
            ),
            "受け取ったカードは返せません（競技ルールでは10以下、なければ最も弱いカード）",
            "rule 12 return",
        )
    hands = list(state.hands)
    hands[seat] = hands[seat] - _cards_of([card])
    hands[payer] = hands[payer] + _cards_of([card])
    returned = list(state.returned)
    returned[seat] = card
    state = replace(state, hands=tuple(hands), returned=tuple(returned))
    events.append(GuandanEvent("tribute_returned", seat, _cards_of([card]), payer))
    if all(state.returned[state.gets[p]] >= 0 for p in setup.payers):
        state = replace(state, phase=PHASE_PLAY, turn=state.leader)
        events.append(GuandanEvent("tribute_done", state.leader))
    return state, tuple(events)


def _one_card(move: Move, en: str, ja: str, rule: str) -> Card:
    if len(move.cards) != 1:
        raise _illegal("tribute_invalid", en, ja, rule)
    return move.cards.one.bit_length() - 1


# --- play ----------------------------------------------------------------------------------


def _next_in_hand(out: tuple[int, ...], seat: int) -> int:
    for step in range(1, SEATS + 1):
        candidate = (seat + step) % SEATS
        if candidate not in out:
            return candidate
    return -1


def reading_of(state: State, move: Move) -> tuple[Combo, tuple[Card, ...]]:
    """The combination ``move`` plays and its declaration; raises :class:`IllegalMove`.

    With ``wild_as`` the declaration decides; without, the selection must have one reading,
    or (following) one reading that beats the table (E8)."""
    level = state.level
    if any(t >= SMALL_JOKER for t in move.wild_as):
        raise _illegal(
            "bad_wild_declaration",
            "a wild never stands for a joker (SJ, BJ)",
            "逢人配は小王・大王の代わりにはなりません",
            "rule 4 wilds",
        )
    if move.wild_as:
        combo = read_declared(move.cards, move.wild_as, level)
        if combo is None:
            raise _illegal(
                "bad_wild_declaration",
                "the wilds cannot stand for these cards here",
                "逢人配の宣言がこの組み合わせに合いません",
                "rule 4 wilds",
            )
        return combo, tuple(sorted(move.wild_as))
    found = readings(move.cards, level)
    if not found:
        raise _illegal(
            "invalid_combination",
            "these cards make no combination",
            "役になっていません",
            "rules 5–6 combinations",
        )
    if len(found) > 1 and state.table is not None:
        # Following, only the readings that beat the table matter; if none does, the one of
        # the table's kind (if any) says why the play fails.
        table = state.table
        beating = {c: t for c, t in found.items() if c.beats(table)}
        if not beating:
            same_kind = [c for c in found if c.kind == table.kind]
            combo = same_kind[0] if same_kind else next(iter(found))
            return combo, found[combo]
        found = beating
    if len(found) > 1:
        raise _illegal(
            "choice_required",
            "the wilds can be read several ways: declare what each stands for ('as')",
            "逢人配の読み方が複数あります。何として出すか宣言してください（as）",
            "rule 4, E8 wild declaration",
        )
    combo, targets = next(iter(found.items()))
    return combo, targets


def _apply_play(state: State, move: Move) -> tuple[State, tuple[GuandanEvent, ...]]:
    seat = move.seat
    if move.cards not in state.hands[seat]:
        raise _illegal("card_not_in_hand", "card not in hand", "持っていないカードです", "rule 7")
    if not move.cards:
        raise _illegal("invalid_combination", "a play needs cards", "カードがありません", "rule 7")
    combo, targets = reading_of(state, move)
    table = state.table
    if table is not None and not combo.beats(table):
        if combo.tier < 0 and table.tier < 0 and combo.kind != table.kind:
            raise _illegal(
                "wrong_kind",
                f"a {combo.kind.replace('_', ' ')} cannot follow a {table.kind.replace('_', ' ')}",
                "場と同じ種類の組み合わせか爆弾を出してください",
                "rule 7 following",
            )
        raise _illegal(
            "not_stronger",
            "not stronger than the table (a tie never beats)",
            "場より強くありません（同じ強さでは出せません）",
            "rules 6–7",
        )
    events = [GuandanEvent("played", seat, move.cards, combo=combo, wild_as=targets)]
    hands = list(state.hands)
    hands[seat] = hands[seat] - move.cards
    out = state.out
    first_out = state.first_out
    if not hands[seat]:
        out = (*out, seat)
        if len(out) == 1:
            first_out = move.cards
        events.append(GuandanEvent("finished", seat, place=len(out)))
    # Rule 9: the hand ends as soon as both players of a team are out.
    over = partner(seat) in out and seat in out
    new = replace(
        state,
        phase=PHASE_OVER if over else PHASE_PLAY,
        turn=-1 if over else _next_in_hand(out, seat),
        hands=tuple(hands),
        played=state.played + move.cards,
        table=combo,
        table_cards=move.cards,
        table_as=targets,
        last=seat,
        passed=0,
        out=out,
        first_out=first_out,
    )
    if over:
        events.append(GuandanEvent("game_over", order=final_order(new)))
    return new, tuple(events)


def _apply_pass(state: State, move: Move) -> tuple[State, tuple[GuandanEvent, ...]]:
    seat = move.seat
    if state.table is None:
        raise _illegal("must_lead", "the leader must play", "親はパスできません", "rule 7")
    passed = state.passed | 1 << seat
    events = [GuandanEvent("passed", seat)]
    others = [s for s in range(SEATS) if s != state.last and s not in state.out]
    if all(passed >> s & 1 for s in others):
        # Rule 8: the trick ends; the last player leads, or (接风) their partner if they went
        # out with that play.
        jiefeng = state.last in state.out
        leader = partner(state.last) if jiefeng else state.last
        events.append(GuandanEvent("trick_cleared", leader))
        if jiefeng:
            events.append(GuandanEvent("jiefeng", leader))
        cleared = replace(
            state, table=None, table_cards=EMPTY, table_as=(), last=-1, passed=0, turn=leader
        )
        return cleared, tuple(events)
    return replace(state, passed=passed, turn=_next_in_hand(state.out, seat)), tuple(events)


def apply(state: State, move: Move) -> tuple[State, tuple[GuandanEvent, ...]]:
    """The state after ``move`` and its events; raises :class:`IllegalMove` and changes
    nothing."""
    if not 0 <= move.seat < SEATS:
        raise _illegal("not_your_turn", "no such seat", "その席はありません", "rule 1")
    if state.phase == PHASE_OVER:
        raise _illegal("game_over", "the hand is over", "この局は終わりました", "rule 9")
    if move.action in (TRIBUTE, RETURN, TAKE):
        if state.phase != PHASE_TRIBUTE:
            raise _illegal(
                "tribute_invalid",
                "no tribute is owed now",
                "今は進貢・還貢の時ではありません",
                "rule 12",
            )
        return _apply_tribute(state, move)
    if state.phase == PHASE_TRIBUTE:
        raise _illegal(
            "tribute_invalid",
            "the tribute comes before the first play",
            "進貢・還貢が済むまで出せません",
            "rule 12",
        )
    if move.seat != state.turn:
        raise _illegal("not_your_turn", "not your turn", "あなたの番ではありません", "rule 7")
    if move.action == PASS:
        if move.cards or move.wild_as:
            raise _illegal(
                "invalid_combination", "a pass plays no cards", "パスにカードは付けません", "rule 7"
            )
        return _apply_pass(state, move)
    if move.action != PLAY:
        raise _illegal("invalid_combination", "unknown action", "不明な手です", "")
    return _apply_play(state, move)


# --- legal moves ---------------------------------------------------------------------------


_Group = tuple[int, int, int, int]
"""One way to make a group of one rank: the wilds it takes, its natural cards' two masks
(:class:`Cards` ``one`` and ``two``) and their suits (a bit per suit)."""

_MAX_GROUP: Final = 10  # the largest group of one rank: a ten-card bomb
_NIBBLE_BITS: Final = tuple(n.bit_count() for n in range(16))


def _sub_patterns(one: int, two: int, natural: int) -> list[tuple[int, int]]:
    """Every way to take ``natural`` cards from one rank's cards, given as its nibble masks
    (a bit per suit: ``one`` at least one copy, ``two`` both): each as its own (one, two),
    in the order move generation has always listed them (suits ♠ first, most copies first)."""
    out: list[tuple[int, int]] = []

    def take(suit: int, left: int, got_one: int, got_two: int) -> None:
        if left == 0:
            out.append((got_one, got_two))
            return
        if suit == 4:
            return
        bit = 1 << suit
        copies = (one >> suit & 1) + (two >> suit & 1)
        for n in range(min(copies, left), -1, -1):
            take(
                suit + 1,
                left - n,
                got_one | (bit if n else 0),
                got_two | (bit if n == 2 else 0),
            )

    take(0, natural, 0, 0)
    return out


def _group_index(pattern: int, size: int, wilds: int, min_natural: int) -> int:
    """Where :data:`_GROUP_SHAPES` keeps the groups of a rank's ``pattern`` (``one`` nibble |
    ``two`` nibble << 4) for ``size`` cards, up to ``wilds`` wilds, ``min_natural`` naturals."""
    return ((pattern * (_MAX_GROUP + 1) + size) * 3 + wilds) * 2 + min_natural


def _group_shapes() -> tuple[tuple[_Group, ...], ...]:
    """The groups of one rank for every holding (81: 0–2 copies of each suit), size, number
    of wilds (0–2) and least number of natural cards (0–1), as masks of rank 0: a constant
    table computed once at import (a few thousand small tuples, a few ms)."""
    table: list[tuple[_Group, ...]] = [()] * _group_index(256, 0, 0, 0)
    for pattern in range(256):
        one, two = pattern & 15, pattern >> 4
        if two & ~one:
            continue  # both copies of a suit imply one
        held = _NIBBLE_BITS[one] + _NIBBLE_BITS[two]
        by_natural = [_sub_patterns(one, two, n) for n in range(held + 1)]
        for size in range(1, _MAX_GROUP + 1):
            for wilds in range(3):
                if held + wilds < size:
                    continue  # no group: the slots keep the empty tuple
                for min_natural in range(2):
                    low = max(min_natural, size - wilds)
                    # The suits of the natural cards are the suits held once or more: ``one``.
                    table[_group_index(pattern, size, wilds, min_natural)] = tuple(
                        (size - natural, got_one, got_two, got_one)
                        for natural in range(min(size, held), low - 1, -1)
                        for got_one, got_two in by_natural[natural]
                    )
    return tuple(table)


_GROUP_SHAPES: Final = _group_shapes()


class _Hand:
    """A hand indexed for move generation, built once per :func:`play_options` call: per rank
    the natural cards (wilds left out) as nibble masks and their count, and the groups of one
    rank and the runs asked for so far (the same group is asked for by many combinations)."""

    __slots__ = (
        "hand",
        "held",
        "level",
        "level_rank",
        "patterns",
        "ways",
        "wild",
        "wilds",
        "windows",
    )

    def __init__(self, hand: Cards, level: int) -> None:
        self.hand = hand
        self.level = level
        self.wild = wild_card(level)
        self.level_rank = RANK_OF_VALUE[level]
        self.wilds = hand.count(self.wild)
        # Both copies of the wild are wild, so the natural cards are the hand without it.
        naturals = ~(1 << self.wild)
        one, two = hand.one & naturals, hand.two & naturals
        patterns = []
        held = []
        for rank in range(13):
            one_suits, two_suits = one >> 4 * rank & 15, two >> 4 * rank & 15
            patterns.append(one_suits | two_suits << 4)
            held.append(_NIBBLE_BITS[one_suits] + _NIBBLE_BITS[two_suits])
        self.patterns = patterns
        self.held = held
        self.ways: dict[tuple[int, int, int, int], list[_Group]] = {}
        self.windows: dict[tuple[int, int], list[tuple[int, list[int]]]] = {}

    def with_wilds(self, one: int, two: int, wilds: int) -> Cards:
        """The natural cards of masks ``one`` / ``two`` (no wild among them) and ``wilds``
        wilds."""
        if wilds:
            bit = 1 << self.wild
            one |= bit
            if wilds == 2:
                two |= bit
        return Cards(one, two)

    def runs(self, length: int, width: int) -> list[tuple[int, list[int]]]:
        """The runs the hand can fill (with its wilds): each one's start and ranks."""
        key = (length, width)
        found = self.windows.get(key)
        if found is None:
            found = []
            # Cards missing for a run at each value, A low (1) to A high (14).
            missing = [max(0, width - self.held[RANK_OF_VALUE[v]]) for v in range(1, 15)]
            for start in range(1, 16 - length):
                if sum(missing[start - 1 : start - 1 + length]) <= self.wilds:
                    found.append((start, [RANK_OF_VALUE[v] for v in range(start, start + length)]))
            self.windows[key] = found
        return found

    def groups(self, rank: int, size: int, wilds: int, min_natural: int) -> list[_Group]:
        """Ways to make ``size`` cards of ``rank``: natural cards (at least ``min_natural``)
        plus up to ``wilds`` wilds, each as a :data:`_Group`."""
        key = (rank, size, wilds, min_natural)
        found = self.ways.get(key)
        if found is None:
            shift = 4 * rank
            shapes = _GROUP_SHAPES[_group_index(self.patterns[rank], size, wilds, min_natural)]
            found = self.ways[key] = [
                (used, one << shift, two << shift, suits) for used, one, two, suits in shapes
            ]
        return found


_Found = dict[tuple[Cards, Combo], tuple[Card, ...]]


def _heart(rank: int) -> Card:
    return rank * 4 + HEARTS


def _same_rank_plays(h: _Hand, size: int, found: _Found, table: Combo | None) -> None:
    """Singles, pairs, triples and 4–10-card bombs of one rank."""
    kind = _SAME_RANK_KINDS[size] if size <= 3 else BOMB
    for rank in range(13):
        if h.held[rank] + h.wilds < size or not (h.held[rank] or rank == h.level_rank):
            continue
        value = VALUE_OF_RANK[rank]
        combo = _combo(kind, 15 if value == h.level else value, size)
        if table is not None and not combo.beats(table):
            continue
        is_level = rank == h.level_rank
        # Only the level rank may be made of wilds alone (a lone wild, two wilds).
        minimum = 0 if is_level and size <= 2 else 1
        for wilds, one, two, _suits in h.groups(rank, size, h.wilds, minimum):
            found.setdefault((h.with_wilds(one, two, wilds), combo), (_heart(rank),) * wilds)
    if size <= 2:
        for joker in (SMALL_JOKER, BIG_JOKER):
            if h.hand.count(joker) >= size:
                combo = Combo(SINGLE if size == 1 else PAIR, strength(joker, h.level), size)
                if table is None or combo.beats(table):
                    found.setdefault((_cards_of([joker] * size), combo), ())


def _joker_bomb(h: _Hand, found: _Found, table: Combo | None) -> None:
    if h.hand.count(SMALL_JOKER) == 2 and h.hand.count(BIG_JOKER) == 2:
        combo = Combo(JOKER_BOMB, 0, 4)
        if table is None or combo.beats(table):
            jokers = [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]
            found.setdefault((_cards_of(jokers), combo), ())


def _full_houses(h: _Hand, found: _Found, table: Combo | None) -> None:
    level = h.level
    for rank in range(13):
        if not h.held[rank] or h.held[rank] + h.wilds < 3:
            continue
        value = VALUE_OF_RANK[rank]
        combo = _combo(FULL_HOUSE, 15 if value == level else value, 5)
        if table is not None and not combo.beats(table):
            continue
        for used, one, two, _suits in h.groups(rank, 3, h.wilds, 1):
            left = h.wilds - used
            triple_as = (_heart(rank),) * used
            for other in range(13):
                if other == rank or h.held[other] + left < 2:
                    continue
                # Different ranks never share a card, so the masks simply add up.
                for pair_used, p_one, p_two, _ in h.groups(other, 2, left, 0):
                    cards = h.with_wilds(one | p_one, two | p_two, used + pair_used)
                    targets = tuple(sorted(triple_as + (_heart(other),) * pair_used))
                    found.setdefault((cards, combo), targets)
            for joker in (SMALL_JOKER, BIG_JOKER):
                if h.hand.count(joker) == 2:
                    bit = 1 << joker
                    cards = h.with_wilds(one | bit, two | bit, used)
                    found.setdefault((cards, combo), triple_as)


def _runs(h: _Hand, length: int, width: int, found: _Found, table: Combo | None) -> None:
    """Straights (and straight flushes) of 5, tubes of 3 pairs, plates of 2 triples: one
    group of ``width`` cards per rank of the run, wilds filling gaps."""
    kind = {1: STRAIGHT, 2: TUBE, 3: PLATE}[width]
    minimum = 0 if width <= 2 else 1  # a triple needs a natural card: there are two wilds
    for start, ranks in h.runs(length, width):
        plain = _combo(kind, start, length * width)
        flush = _combo(STRAIGHT_FLUSH, start, 5) if width == 1 else None
        want_plain = table is None or plain.beats(table)
        want_flush = flush is not None and (table is None or flush.beats(table))
        if not want_plain and not want_flush:
            continue
        options = [h.groups(r, width, h.wilds, minimum) for r in ranks]
        if not want_plain:
            # Only straight flushes (a bomb on the table): one suit at a time.
            for suit in range(4):
                bit = 1 << suit
                suited = [[g for g in groups if g[3] in (0, bit)] for groups in options]
                if all(suited):
                    _add_runs(h, ranks, product(*suited), plain, flush, False, True, found)
            continue
        _add_runs(h, ranks, product(*options), plain, flush, want_plain, want_flush, found)


def _add_runs(
    h: _Hand,
    ranks: list[int],
    choices: Iterator[tuple[_Group, ...]],
    plain: Combo,
    flush: Combo | None,
    want_plain: bool,
    want_flush: bool,
    found: _Found,
) -> None:
    """Each choice of one group per rank of a run, as the plays (and readings) it makes."""
    for choice in choices:
        used = one = two = suits = 0
        for group in choice:
            used += group[0]
            one |= group[1]
            two |= group[2]
            suits |= group[3]
        if used > h.wilds:
            continue
        missing = (
            [r for r, g in zip(ranks, choice, strict=True) for _ in range(g[0])] if used else []
        )
        selection = h.with_wilds(one, two, used)
        if flush is not None and suits.bit_count() == 1:
            suit = suits.bit_length() - 1
            if want_flush:
                found.setdefault((selection, flush), tuple(sorted(r * 4 + suit for r in missing)))
            if missing and want_plain:
                # A wild standing for another suit reads the same cards as a straight.
                other = 1 if suit == 0 else 0
                found.setdefault((selection, plain), tuple(sorted(r * 4 + other for r in missing)))
        elif want_plain:
            found.setdefault((selection, plain), tuple(sorted(map(_heart, missing))))


def play_options(hand: Cards, level: int, table: Combo | None) -> _Found:
    """Every (cards, combination) the hand can play on ``table`` (``None``: a lead), each with
    a declaration for its wilds."""
    h = _Hand(hand, level)
    found: _Found = {}
    kinds = (
        KINDS
        if table is None
        else tuple(dict.fromkeys((table.kind, BOMB, STRAIGHT_FLUSH, JOKER_BOMB)))
    )
    for kind in kinds:
        if kind in (SINGLE, PAIR, TRIPLE):
            _same_rank_plays(h, KINDS.index(kind) + 1, found, table)
        elif kind == BOMB:
            for size in range(4, min(10, max(h.held) + h.wilds) + 1):
                _same_rank_plays(h, size, found, table)
        elif kind == FULL_HOUSE:
            _full_houses(h, found, table)
        elif kind in (STRAIGHT, STRAIGHT_FLUSH):
            if STRAIGHT not in kinds or kind == STRAIGHT:
                _runs(h, 5, 1, found, table)
        elif kind == TUBE:
            _runs(h, 3, 2, found, table)
        elif kind == PLATE:
            _runs(h, 2, 3, found, table)
        else:
            _joker_bomb(h, found, table)
    return found


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move now, fully specified (a play with wilds carries ``wild_as``; the same
    cards come once per distinct reading). In the tribute phase, every pending decision's
    moves."""
    return iter(_legal_moves(state))


def _legal_moves(state: State) -> list[Move]:
    if state.phase == PHASE_OVER:
        return []
    if state.phase == PHASE_TRIBUTE:
        return _tribute_moves(state)
    seat = state.turn
    moves = [
        Move(seat, PLAY, cards, targets)
        for (cards, _combo), targets in play_options(
            state.hands[seat], state.level, state.table
        ).items()
    ]
    if state.table is not None:
        moves.append(Move(seat, PASS))
    return moves


def _tribute_moves(state: State) -> list[Move]:
    moves: list[Move] = []
    for decision in pending(state):
        seat = decision.seat
        if decision.kind == TRIBUTE:
            moves += [Move(seat, TRIBUTE, _cards_of([c])) for c in tribute_options(state, seat)]
        elif decision.kind == RETURN:
            moves += [Move(seat, RETURN, _cards_of([c])) for c in return_options(state, seat)]
        else:
            moves += [Move(seat, TAKE, source=p) for p in state.setup.payers]
    return moves


# --- decisions, results --------------------------------------------------------------------


def pending(state: State) -> tuple[Decision, ...]:
    """The tribute decisions owed now: ``tribute`` (each payer, simultaneous), ``take`` (first
    place between two equal tributes, pagat), ``return`` (each receiver)."""
    if state.phase != PHASE_TRIBUTE:
        return ()
    setup = state.setup
    unpaid = [p for p in setup.payers if state.paid[p] < 0]
    if unpaid:
        to = setup.receivers[0] if len(setup.payers) == 1 else None
        return tuple(Decision(p, TRIBUTE, 1, to) for p in unpaid)
    if state.leader < 0:
        return (Decision(setup.receivers[0], TAKE),)
    return tuple(
        Decision(state.gets[p], RETURN, 1, p)
        for p in setup.payers
        if state.returned[state.gets[p]] < 0
    )


def to_move(state: State) -> tuple[int, ...]:
    if state.phase == PHASE_OVER:
        return ()
    if state.phase == PHASE_TRIBUTE:
        return tuple(sorted({d.seat for d in pending(state)}))
    return (state.turn,)


def final_order(state: State) -> tuple[int, ...]:
    """Every seat, first place first: the finishers, then the seats still holding cards in
    the direction of play from the last finisher."""
    rest = [s for s in range(SEATS) if s not in state.out]
    last = state.out[-1] if state.out else 0
    rest.sort(key=lambda s: (s - last) % SEATS)
    return (*state.out, *rest)


def places(state: State) -> dict[int, int]:
    """Each placed seat's place. After a 1-2 finish the two losers share third place (the
    hand ends before they are told apart, rule 9)."""
    out = {seat: i + 1 for i, seat in enumerate(state.out)}
    if state.phase == PHASE_OVER:
        rest = [s for s in range(SEATS) if s not in out]
        for seat in rest:
            out[seat] = len(state.out) + 1
    return out


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a finished hand does to the match (rules 10–11, E2, E10)."""

    finish: str
    winner: int
    gain: int
    match: Match
    match_won: bool
    failed_at_a: bool
    demoted: int | None


def complete_order(order: Sequence[int]) -> tuple[int, ...]:
    """Every seat, first place first, from the seats in finishing order as far as they decide
    the hand: ``[a, partner of a]`` (1-2), three seats (the fourth is last), or all four. The
    seats left are added in the direction of play from the last one named (as
    :func:`final_order` does for a hand played out). Raises :class:`RulesError` for an
    order that repeats a seat, names no seat 0 … 3, or does not decide the finish."""
    order = tuple(order)
    if any(type(s) is not int or not 0 <= s < SEATS for s in order):
        raise RulesError("a finishing order names seats 0 … 3")
    if len(set(order)) != len(order):
        raise RulesError("a finishing order names each seat once")
    decided = len(order) >= SEATS - 1 or (len(order) == 2 and order[1] == partner(order[0]))
    if not decided:
        raise RulesError("the finishing order does not decide the finish (1-2, 1-3 or 1-4)")
    rest = [s for s in range(SEATS) if s not in order]
    rest.sort(key=lambda s: (s - order[-1]) % SEATS)
    return (*order, *rest)


def settle_hand(
    rules: GuandanRules, match: Match, order: Sequence[int], *, aces_only: bool = False
) -> tuple[HandResult, tuple[SeatResult, ...]]:
    """What a hand finished in ``order`` (as far as it decides the finish,
    :func:`complete_order`) does to ``match``: its :class:`HandResult` and each seat's
    result, first place first. ``aces_only``: the first finisher went out with a final play
    of aces only (it matters only under ``aces_finish_demotes``).

    The one path to a hand's result: a hand played out (:func:`hand_result`,
    :func:`outcome`) and a hand entered by its finishing order alone come through here."""
    order = complete_order(order)
    finish = finish_of(order)
    winner = team_of(order[0])
    gain = LEVEL_GAIN[finish]
    declarer = match.declarer
    levels = list(match.levels)
    failures = list(match.failures)
    at_a = declarer is not None and match.levels[declarer] == ACE
    won = at_a and winner == declarer and finish in ("1-2", "1-3")
    failed = at_a and not won
    demoted: int | None = None
    if not won:
        levels[winner] = min(ACE, levels[winner] + gain)
    if failed and declarer is not None:
        failures[declarer] += 1
        aces_demote = rules.aces_finish_demotes and winner != declarer and aces_only
        limit = rules.a_failure_limit
        if aces_demote or (limit and failures[declarer] >= limit):
            levels[declarer] = 2
            failures[declarer] = 0
            demoted = declarer
    following = Match((levels[0], levels[1]), (failures[0], failures[1]), order)
    result = HandResult(finish, winner, gain, following, won, failed, demoted)
    # After a 1-2 finish the two losers share third place (the hand ends before they are
    # told apart, rule 9).
    placed = {seat: min(i + 1, 3) if finish == "1-2" else i + 1 for i, seat in enumerate(order)}
    seats = []
    for seat in sorted(placed, key=lambda s: (placed[s], s)):
        team = team_of(seat)
        detail: dict[str, object] = {
            "finish": finish,
            "level_gain": gain if team == winner and not won else 0,
            "team_level": format_level(levels[team]),
            "match_won": won and team == winner,
            "failed_at_a": failed and team == declarer,
            "failures_at_a": failures[team],
            "demoted": demoted == team,
        }
        seats.append(SeatResult(seat, placed[seat], team, None, detail))
    return result, tuple(seats)


def _settled(state: State) -> tuple[HandResult, tuple[SeatResult, ...]]:
    if state.phase != PHASE_OVER:
        raise RulesError("the hand is not over")
    return settle_hand(
        state.rules, state.setup.match, final_order(state), aces_only=_only_aces(state)
    )


def hand_result(state: State) -> HandResult:
    """The finished hand's level change and the next hand's :class:`Match`."""
    return _settled(state)[0]


def _only_aces(state: State) -> bool:
    """pagat: the opponents' first finisher went out with a final play of aces only."""
    cards = list(state.first_out)
    return bool(cards) and all(c < SMALL_JOKER and value_of(c) == ACE for c in cards)


def next_match(state: State) -> Match:
    """The :class:`Match` the next hand starts from."""
    return hand_result(state).match


def outcome(state: State) -> tuple[SeatResult, ...] | None:
    if state.phase != PHASE_OVER:
        return None
    return _settled(state)[1]


def placings(state: State) -> list[dict[str, object]]:
    """The replay output's placings: each placed seat's place and team, and once the hand
    is over the results' detail (finish, level gain, team level, match won …)."""
    results = outcome(state)
    if results is not None:
        return [{"seat": r.seat, "place": r.place, "team": r.team, **r.detail} for r in results]
    placed = places(state)
    return [
        {"seat": s, "place": placed[s], "team": team_of(s)}
        for s in sorted(placed, key=lambda s: (placed[s], s))
    ]


def observe(state: State, viewer: int | None = None) -> dict[str, object]:
    """What ``viewer`` (a seat, or ``None`` for the public) may see: never another seat's
    cards. Counts above 10 are shown as ``null`` to the others: rule 16 only obliges a
    player to tell their count at 10 or fewer."""
    setup = state.setup
    counts: list[int | None] = [
        len(h) if len(h) <= 10 or viewer == s else None for s, h in enumerate(state.hands)
    ]
    view: dict[str, object] = {
        "phase": PHASE_NAMES[state.phase],
        "level": format_level(state.level),
        "declarer": setup.match.declarer,
        "levels": [format_level(v) for v in setup.match.levels],
        "turn": state.turn if state.phase == PHASE_PLAY else None,
        "counts": counts,
        "table": None
        if state.table is None
        else {
            "seat": state.last,
            "cards": multi_names(state.table_cards),
            "as": [multi_card_name(c) for c in state.table_as],
            "combination": state.table.kind,
        },
        "passed": [s for s in range(SEATS) if state.passed >> s & 1],
        "out": list(state.out),
        "pending": [d.to_dict() for d in pending(state)],
        "anti_tribute": setup.anti_tribute,
        "tributes": [
            {"seat": p, "card": multi_card_name(state.paid[p]), "to": state.gets[p]}
            for p in setup.payers
            if state.paid[p] >= 0
        ],
    }
    if viewer is not None and 0 <= viewer < SEATS:
        view["hand"] = multi_names(state.hands[viewer])
        # A returned card is seen by its giver and its receiver only.
        returns = [
            {"seat": state.gets[p], "card": multi_card_name(state.returned[state.gets[p]]), "to": p}
            for p in setup.payers
            if state.gets[p] >= 0
            and state.returned[state.gets[p]] >= 0
            and viewer in (p, state.gets[p])
        ]
        view["returns"] = returns
    return view


# --- records -------------------------------------------------------------------------------

SETUP_KEYS: Final = frozenset({"seats", "hands", "leader", "match", "moves"})
MOVE_KEYS: Final = frozenset({"seat", "play", "pass", "as", "tribute", "return", "take"})


@dataclass(frozen=True, slots=True)
class GuandanRecord:
    """A validated Guandan record: the set-up and the actions (tribute decisions and plays,
    in the order they were made, in ``moves``)."""

    rules: GuandanRules
    hands: tuple[Cards, ...]
    match: Match
    leader: int | None
    moves: tuple[Move, ...]

    def initial_state(self) -> State:
        return new_game(self.rules, self.hands, match=self.match, leader=self.leader)

    def sections(self) -> tuple[tuple[str, tuple[Move, ...]], ...]:
        return (("moves", self.moves),)


def _card_list(value: object, key: str) -> Cards:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise form_error("expected a list of cards", "カードのリストです", key)
    try:
        return parse_multi([_card_name(v, f"{key}[{i}]") for i, v in enumerate(value)])
    except InvalidNotation as exc:
        raise RecordError(
            str(exc), key=key, code="unknown_card", message_ja="不明なカードです"
        ) from None


def _card_name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{value!r} is not a card", key=key, code="unknown_card")
    return value


def move_from_json(value: object, key: str, seats: int = SEATS) -> Move:
    """A :class:`Move` from a record's move object, checked for form only: ``{seat, play,
    as?}``, ``{seat, pass: true}``, ``{seat, tribute: [card]}``, ``{seat, return: [card]}``,
    ``{seat, take: payer}``. Raises :class:`RecordError`."""
    value, seat, action = read_move_object(
        value, key, seats, MOVE_KEYS, (PLAY, PASS, TRIBUTE, RETURN, TAKE)
    )
    if "as" in value and action != PLAY:
        raise form_error("'as' belongs to a play", "'as' は play にだけ付けます", f"{key}.as")
    if action == PASS:
        if value[PASS] is not True:
            raise form_error("pass must be true when present", "pass は true です", f"{key}.pass")
        return Move(seat, PASS)
    if action == TAKE:
        source = value[TAKE]
        if isinstance(source, bool) or not isinstance(source, int) or not 0 <= source < seats:
            raise form_error(
                "'take' names the payer's seat", "'take' は進貢した席です", f"{key}.take"
            )
        return Move(seat, TAKE, source=source)
    cards = _card_list(value[action], f"{key}.{action}")
    if not cards:
        raise RecordError(
            "a move needs cards",
            key=f"{key}.{action}",
            code="invalid_combination",
            message_ja="カードを選んでください",
        )
    targets: tuple[Card, ...] = ()
    if "as" in value:
        raw = value["as"]
        raw = raw.split() if isinstance(raw, str) else raw
        if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
            raise form_error(
                "'as' lists one or two cards", "'as' は1〜2枚のカードです", f"{key}.as"
            )
        try:
            targets = _parse_targets([_card_name(v, f"{key}.as[{i}]") for i, v in enumerate(raw)])
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"{key}.as", code="unknown_card") from None
    return Move(seat, action, cards, targets)


def move_to_json(move: Move) -> dict[str, object]:
    if move.action == PASS:
        return {"seat": move.seat, "pass": True}
    if move.action == TAKE:
        return {"seat": move.seat, "take": move.source}
    out: dict[str, object] = {"seat": move.seat, move.action: multi_names(move.cards)}
    if move.wild_as:
        out["as"] = [multi_card_name(c) for c in move.wild_as]
    return out


def match_from_record(value: object) -> Match:
    """A :class:`Match` from its record form (:meth:`Match.to_record`; ``None``: a new
    match). Raises :class:`RecordError` for anything else."""
    if value is None:
        return Match()
    if not isinstance(value, dict) or set(value) - {"levels", "failures", "previous", "declarer"}:
        raise RecordError("match is {levels, failures, previous, declarer}", key="match")
    try:
        levels = tuple(parse_level(v) for v in value.get("levels", ["2", "2"]))
    except (InvalidNotation, TypeError):
        raise RecordError("levels are two of 2 … 10, J, Q, K, A", key="match.levels") from None
    failures = value.get("failures", [0, 0])
    if not isinstance(failures, list) or not all(type(f) is int and 0 <= f <= 99 for f in failures):
        raise RecordError("failures are two counts", key="match.failures")
    previous = value.get("previous")
    if previous is not None and (
        not isinstance(previous, list) or not all(type(s) is int for s in previous)
    ):
        raise RecordError("previous lists the seats in finishing order", key="match.previous")
    if len(levels) != 2 or len(failures) != 2:
        raise RecordError("one level and one count per team", key="match")
    declaring = value.get("declarer")
    if declaring is not None and type(declaring) is not int:
        raise RecordError("declarer is team 0 or 1", key="match.declarer")
    match = Match(
        (levels[0], levels[1]),
        (failures[0], failures[1]),
        None if previous is None else tuple(previous),
        declaring,
    )
    _check_match(match)
    return match


def load_record(obj: Mapping[str, object], rules: GuandanRules) -> GuandanRecord:
    """The Guandan part of a record (``seats``, ``hands``, ``leader``, ``match``, ``moves``)."""
    if obj.get("seats", SEATS) != SEATS or isinstance(obj.get("seats"), bool):
        raise RecordError(f"{rules.key} is played by {SEATS} seats", key="seats")
    raw_hands = obj.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != SEATS:
        raise RecordError(f"expected a list of {SEATS} hands", key="hands")
    hands = tuple(_card_list(h, f"hands[{i}]") for i, h in enumerate(raw_hands))
    leader = obj.get("leader")
    if leader is not None and (type(leader) is not int or not 0 <= leader < SEATS):
        raise RecordError("leader is a seat 0 … 3", key="leader")
    match = match_from_record(obj.get("match"))
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("expected a list", key="moves")
    moves = tuple(move_from_json(m, f"moves[{i}]") for i, m in enumerate(raw_moves))
    record = GuandanRecord(rules, hands, match, leader if type(leader) is int else None, moves)
    record.initial_state()  # validates the set-up
    return record


def export_record(start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
    setup = start.setup if isinstance(start, State) else start
    out: dict[str, object] = {
        "seats": SEATS,
        "hands": [multi_names(h) for h in setup.hands],
        "match": setup.match.to_record(),
    }
    if setup.leader is not None:
        out["leader"] = setup.leader
    out["moves"] = [move_to_json(m) for m in actions]
    return out


@dataclass(frozen=True, slots=True)
class GuandanDeal:
    """Four hands of 27 from the two packs."""

    hands: tuple[Cards, ...]

    def to_record(self) -> dict[str, object]:
        return {"hands": [multi_names(h) for h in self.hands]}


def deal_hands(seed: bytes | str | int, rules: GuandanRules) -> tuple[Cards, ...]:
    """The 108 cards dealt 27 each from ``seed`` (``deal.deal_multi``'s stream)."""
    return deal_multi(seed, DOUBLE_DECK, rules.seats)


# --- match records -------------------------------------------------------------------------

MATCH_RECORD_KEYS: Final = frozenset({"seats", "games"})
GAME_KEYS: Final = frozenset({"hands", "leader", "match", "moves"})
MATCH_MISMATCH: Final = "match_mismatch"
"""The code of a :class:`RecordError` for a game whose stated ``match`` is not the one the
game before leads to."""


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game (hand) of a match record as written: its deal, leader, the ``match`` it
    states (``None``: not stated) and its actions."""

    hands: tuple[Cards, ...]
    leader: int | None
    stated: Match | None
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class GuandanMatchRecord:
    """A whole match: its games (hands) in order. The first game's ``match`` is where the
    record starts (absent: a new match); every later game's follows from the end of the game
    before (:func:`next_match`), so a record can only state it, and must state it right."""

    rules: GuandanRules
    games: tuple[MatchGame, ...]

    @property
    def count(self) -> int:
        return len(self.games)

    def game(self, index: int, previous: State | None) -> GuandanRecord:
        """Game ``index``'s record, its match derived from ``previous`` (the final state of
        the game before; ``None`` for the first). Raises :class:`RecordError` (key
        ``games[i]…``) when no game can follow, or the stated match differs."""
        key = f"games[{index}]"
        written = self.games[index]
        if previous is None:
            match = written.stated or Match()
        else:
            match = _following_match(previous, index, key)
            if written.stated is not None:
                _check_stated(written.stated, match, f"{key}.match")
        record = GuandanRecord(self.rules, written.hands, match, written.leader, written.moves)
        try:
            record.initial_state()
        except RecordError as exc:
            raise _prefixed(exc, key) from None
        return record

    def game_start(self, state: State) -> dict[str, object]:
        """The match state the game of ``state`` started from, as the engine derived it."""
        return state.setup.match.to_record()

    def game_result(self, state: State) -> dict[str, object] | None:
        """What a finished game did to the match; ``None`` while it is not over."""
        if state.phase != PHASE_OVER:
            return None
        result = hand_result(state)
        return {
            "finish": result.finish,
            "winner": result.winner,
            "level_gain": 0 if result.match_won else result.gain,
            "levels": [format_level(v) for v in result.match.levels],
            "failures": list(result.match.failures),
            "match_won": result.match_won,
            "failed_at_a": result.failed_at_a,
            "demoted": result.demoted,
        }

    def standing(self, state: State) -> dict[str, object]:
        """The match after the record's last game: ``finished`` (won at A), ``winner`` (the
        team, or ``None``), each team's ``levels`` and ``failures`` at A."""
        if state.phase == PHASE_OVER:
            result = hand_result(state)
            match, winner = result.match, result.winner if result.match_won else None
        else:
            match, winner = state.setup.match, None
        return {
            "finished": winner is not None,
            "winner": winner,
            "levels": [format_level(v) for v in match.levels],
            "failures": list(match.failures),
        }


def _following_match(previous: State, index: int, key: str) -> Match:
    """The match game ``index`` starts from: the end of the game before, which must be over
    and must not have won the match."""
    if previous.phase != PHASE_OVER:
        raise RecordError(
            f"game {index - 1} is not over, so no game can follow it",
            key=key,
            message_ja=f"第{index}局が終わっていないので、次の局は始められません",
        )
    result = hand_result(previous)
    if result.match_won:
        raise RecordError(
            f"the match was won in game {index - 1}; no game follows",
            key=key,
            message_ja=f"第{index}局で試合が決まっています",
        )
    return result.match


def _check_stated(stated: Match, derived: Match, key: str) -> None:
    """A stated match must be the derived one, field by field (the first that differs is the
    key at fault)."""
    for name in ("levels", "failures", "previous", "declaring"):
        if name == "previous" and _same_finish(stated.previous, derived.previous):
            continue
        if getattr(stated, name) != getattr(derived, name):
            field_key = "declarer" if name == "declaring" else name
            raise RecordError(
                f"states {field_key} {getattr(stated, name)!r}, but the game before leads to "
                f"{getattr(derived, name)!r}",
                key=f"{key}.{field_key}",
                code=MATCH_MISMATCH,
                message_ja="記録された試合の状態が前の局の結果と一致しません",
            )


def _same_finish(a: tuple[int, ...] | None, b: tuple[int, ...] | None) -> bool:
    """The same finishing order; after a 1-2 finish the two losers in either order (the hand
    ended before they were told apart)."""
    if a is None or b is None or finish_of(a) != "1-2":
        return a == b
    return a[:2] == b[:2] and sorted(a[2:]) == sorted(b[2:])


def _prefixed(exc: RecordError, prefix: str) -> RecordError:
    """``exc`` with its key inside ``prefix`` (a game of a match record)."""
    key = f"{prefix}.{exc.key}" if exc.key else prefix
    return RecordError(exc.message_en, key=key, code=exc.code, message_ja=exc.message_ja)


def _load_game(value: object, index: int) -> MatchGame:
    """One game object of a match record, checked for form (its set-up is checked once the
    game before has been replayed)."""
    key = f"games[{index}]"
    if not isinstance(value, dict):
        raise RecordError("a game is an object {hands, leader, match, moves}", key=key)
    unknown = set(value) - GAME_KEYS
    if unknown:
        raise RecordError("unknown key", key=f"{key}.{sorted(map(str, unknown))[0]}")
    if index and "leader" in value:
        raise RecordError("after the first game the tribute decides who leads", key=f"{key}.leader")
    try:
        raw_hands = value.get("hands")
        if not isinstance(raw_hands, list) or len(raw_hands) != SEATS:
            raise RecordError(f"expected a list of {SEATS} hands", key="hands")
        hands = _dealt([_card_list(h, f"hands[{i}]") for i, h in enumerate(raw_hands)])
        leader = value.get("leader")
        if leader is not None and (type(leader) is not int or not 0 <= leader < SEATS):
            raise RecordError("leader is a seat 0 … 3", key="leader")
        stated = None if value.get("match") is None else match_from_record(value["match"])
        raw_moves = value.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("expected a list", key="moves")
        moves = tuple(move_from_json(m, f"moves[{i}]") for i, m in enumerate(raw_moves))
    except RecordError as exc:
        raise _prefixed(exc, key) from None
    return MatchGame(hands, leader if type(leader) is int else None, stated, moves)


def load_match_record(obj: Mapping[str, object], rules: GuandanRules) -> GuandanMatchRecord:
    """The Guandan part of a match record (``seats``, ``games``); the first game's set-up is
    checked here, each later one when the game before has been replayed."""
    if obj.get("seats", SEATS) != SEATS or isinstance(obj.get("seats"), bool):
        raise RecordError(f"{rules.key} is played by {SEATS} seats", key="seats")
    raw_games = obj.get("games")
    if not isinstance(raw_games, list) or not raw_games:
        raise RecordError("games lists the match's games (hands) in order", key="games")
    record = GuandanMatchRecord(rules, tuple(_load_game(g, i) for i, g in enumerate(raw_games)))
    record.game(0, None)  # validates the first set-up
    return record


def export_match_record(games: Sequence[tuple[State | Setup, Sequence[Move]]]) -> dict[str, object]:
    """The family's keys of a match record: each game started at its initial state (or
    set-up) followed by its actions; every game states the match it started from."""
    return {
        "seats": SEATS,
        "games": [
            {k: v for k, v in export_record(start, actions).items() if k != "seats"}
            for start, actions in games
        ],
    }


# --- snapshots -----------------------------------------------------------------------------

_SNAPSHOT_FIELDS: Final = tuple(f.name for f in fields(State) if f.name != "setup")


def snapshot(state: State) -> dict[str, object]:
    """The state without its set-up, as JSON-able data."""
    data: dict[str, object] = {}
    for name in _SNAPSHOT_FIELDS:
        value = getattr(state, name)
        if isinstance(value, Cards):
            data[name] = multi_names(value)
        elif isinstance(value, Combo):
            data[name] = [value.kind, value.key, value.size]
        elif name == "hands":
            data[name] = [multi_names(h) for h in value]
        elif isinstance(value, tuple):
            data[name] = list(value)
        else:
            data[name] = value
    return data


def restore(setup: Setup, data: Mapping[str, object]) -> State:
    """A state from :func:`snapshot`'s data and the set-up; raises ``SnapshotError``."""
    if set(data) != set(_SNAPSHOT_FIELDS):
        raise SnapshotError("not a Guandan snapshot (its fields differ)")
    try:
        values: dict[str, object] = {}
        for name in _SNAPSHOT_FIELDS:
            raw = data[name]
            if name == "hands":
                assert isinstance(raw, list)
                values[name] = tuple(parse_multi(h) for h in raw)
            elif name in ("played", "table_cards", "first_out"):
                assert isinstance(raw, list)
                values[name] = parse_multi(raw)
            elif name == "table":
                if raw is None:
                    values[name] = None
                else:
                    assert isinstance(raw, list) and len(raw) == 3
                    kind, key, size = raw
                    assert isinstance(kind, str) and type(key) is int and type(size) is int
                    values[name] = Combo(kind, key, size)
            elif isinstance(raw, list):
                assert all(type(v) is int for v in raw)
                values[name] = tuple(raw)
            else:
                assert type(raw) is int
                values[name] = raw
        return State(setup, **values)  # type: ignore[arg-type]
    except (AssertionError, InvalidNotation, ValueError, TypeError) as exc:
        raise SnapshotError(f"not a Guandan snapshot: {exc}") from None


# --- the family ----------------------------------------------------------------------------


class GuandanFamily:
    """掼蛋 behind the :class:`~games.engine.family.Family` interface."""

    name: Final = FAMILY
    presets: Final[Mapping[str, GuandanRules]] = PRESETS
    record_keys: Final = SETUP_KEYS
    metrics: Final = (
        Metric("matches_won", "match_won", True),
        Metric("level_gain", "level_gain"),
    )
    """What team standings count: matches won at A, then levels gained."""

    def ruleset(self, value: object) -> GuandanRules:
        return ruleset_from_record(value)

    def new_game(self, rules: GuandanRules, **setup: object) -> State:
        """``match`` may come as a :class:`Match` or in its record form (as the service
        stores it)."""
        hands = setup.pop("hands")
        match = setup.get("match")
        if match is not None and not isinstance(match, Match):
            setup["match"] = match_from_record(match)
        return new_game(rules, hands, **setup)  # type: ignore[arg-type]

    def legal_moves(self, state: State) -> Iterator[Move]:
        return legal_moves(state)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[GuandanEvent, ...]]:
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

    def load_record(self, obj: Mapping[str, object], rules: GuandanRules) -> GuandanRecord:
        return load_record(obj, rules)

    def export_record(self, start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
        return export_record(start, actions)

    match_record_keys: Final = MATCH_RECORD_KEYS

    def load_match_record(
        self, obj: Mapping[str, object], rules: GuandanRules
    ) -> GuandanMatchRecord:
        return load_match_record(obj, rules)

    def export_match_record(
        self, games: Sequence[tuple[State | Setup, Sequence[Move]]]
    ) -> dict[str, object]:
        return export_match_record(games)

    def move_from_json(self, value: object, key: str, seats: int) -> Move:
        return move_from_json(value, key, seats)

    def move_to_json(self, move: Move) -> dict[str, object]:
        return move_to_json(move)

    def deal(self, seed: bytes | str, rules: GuandanRules) -> GuandanDeal:
        return GuandanDeal(deal_hands(seed, rules))

    def snapshot(self, state: State) -> dict[str, object]:
        return snapshot(state)

    def restore(self, setup: Setup, data: Mapping[str, object]) -> State:
        return restore(setup, data)


GUANDAN: Final = GuandanFamily()
register(GUANDAN)

__all__ = [
    "GUANDAN",
    "GUANDAN_CN",
    "GUANDAN_PAGAT",
    "Combo",
    "GuandanRules",
    "Match",
    "Move",
    "State",
    "apply",
    "classify",
    "legal_moves",
    "new_game",
    "readings",
]
