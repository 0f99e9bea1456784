"""The pure rules core: :class:`State`, :class:`Move`, :func:`legal_moves`, :func:`apply`.

Everything here is deterministic and immutable.  A state is a handful of ints
(card-set masks, seat masks, flags) plus a reference to the game's
:class:`Setup`; :func:`apply` returns a new state and the events the move caused,
or raises :class:`~games.engine.errors.IllegalMove` and changes nothing.

Two levels of checking, as in python-chess (``push_san`` vs ``push``):

* :func:`apply` validates everything (turn, possession, combination, strength,
  locks, opening card, exchange duties) — use it for any outside input;
* :func:`apply_unchecked` trusts that the move came from :func:`legal_moves` of
  this very state — use it for enumeration, replay of validated games and
  benchmarks.  Given anything else its result is undefined.

Seats are numbered ``0..seats-1`` in turn order (clockwise).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import ClassVar, Final, NamedTuple

from .cards import (
    ABOVE_2,
    BELOW_3,
    BEYOND_ENDS,
    JOKER_RANK,
    JOKERS,
    NUMBERS,
    RANK_8,
    RANK_MASK,
    RANKS,
    SPADE_3,
    SUIT_MASK,
    CardSet,
    card_names,
    joker_count,
    lowest_jokers,
    parse_cards,
    parse_joker_targets,
)
from .deal import stalemate_order, stalemate_seed
from .errors import EngineError, IllegalMove, RecordError
from .events import (
    EightCut,
    ElevenBack,
    Event,
    ExchangeDone,
    ExchangeGiven,
    Finished,
    FoulFinish,
    GameOver,
    HeartThreeReturn,
    InstantWin,
    LockStarted,
    Misplay,
    MiyakoOchi,
    NumberLockStarted,
    Passed,
    PassesReset,
    Placing,
    Played,
    Revolution,
    SpadeThreeReturn,
    Stalemate,
    TrickCleared,
    suit_names,
)
from .rules import RuleSet

PHASE_EXCHANGE: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("exchange", "play", "over")

SET: Final = 1
"""Combination kind: single or set of one rank (jokers may stand in)."""
STAIRS: Final = 2
"""Combination kind: stairs (階段), 3+ consecutive ranks of one suit."""
DOUBLE_STAIRS: Final = 3
"""Combination kind: イーペーコー, two same-rank stairs in two suits (switch double_stairs)."""
TRIPLE_RUN: Final = 4
"""Combination kind: サンレンコー, three triples of consecutive ranks (switch triple_run)."""
KIND_NAMES: Final = ("", "set", "stairs", "double_stairs", "triple_run")

RANK_J: Final = 8
HEART_3: Final = 1 << 1
INSTANT_WIN: Final = "instant_win"
CHOICES: Final = {"up": 0, "down": 1}
"""11-back calls (record key ``choice``) → trick order (0 normal 上, 1 reversed 下)."""

TITLES: Final[dict[int, tuple[str, ...]]] = {
    4: ("daifugo", "fugo", "hinmin", "daihinmin"),
    5: ("daifugo", "fugo", "heimin", "hinmin", "daihinmin"),
}
"""Title per place (大富豪, 富豪, 平民, 貧民, 大貧民) by number of seats."""

EXCHANGE_DUTIES: Final[dict[str, tuple[str, int, bool]]] = {
    "daihinmin": ("daifugo", 2, True),
    "hinmin": ("fugo", 1, True),
    "daifugo": ("daihinmin", 2, False),
    "fugo": ("hinmin", 1, False),
}
"""Giver title → (receiver title, cards, must give the strongest) (JDF §15 カード交換)."""

# --- precomputed tables ------------------------------------------------------------

_SPREAD: Final[tuple[CardSet, ...]] = tuple(
    sum(1 << (4 * r) for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
"""13-bit rank mask → card bits of suit ♠ (shift left by the suit for the others)."""

_COMPRESS: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i in range(4) if x >> (4 * i) & 1) for x in range(0x1112)
)
"""Every 4th bit (of 16) → the 4-bit mask of those bits (used on ``& _EVERY_4TH`` values)."""
_POPCOUNT: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(1 << 13))
"""Bits set in a mask of up to 13 bits (ranks, suits, seats, jokers >> 52): mypyc calls
``int.bit_count`` as a Python method, a tuple lookup is native (and no slower in pure Python)."""
_EVERY_4TH: Final = _SPREAD[(1 << 13) - 1]

_SUBSETS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(s for s in range(1, 16) if s & m == s and s.bit_count() == k) for k in range(5))
    for m in range(16)
)
"""4-bit suit mask → subsets of each size."""
_ALL_SUBSETS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s for s in range(1, 16) if s & m == s) for m in range(16)
)
_RUN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(((1 << length) - 1) << a if a + length <= 13 else 0 for length in range(14))
    for a in range(13)
)
_BITS13: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(1 << r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
_BELOW_3_ANY: Final[CardSet] = 15 << BELOW_3
"""The joker-target bits below the 3 of each suit (a run starting at position -1)."""


def _suit_ranks(hand: CardSet, suit: int) -> int:
    """13-bit mask of the ranks ``hand`` holds in ``suit``."""
    x = (hand >> suit) & _EVERY_4TH
    c = _COMPRESS
    return (
        c[x & 0xFFFF]
        | c[(x >> 16) & 0xFFFF] << 4
        | c[(x >> 32) & 0xFFFF] << 8
        | c[(x >> 48) & 0xFFFF] << 12
    )


def _ranks_of(mask: CardSet) -> int:
    """13-bit mask of the ranks present in a card set (any suit)."""
    return _suit_ranks(mask, 0) | _suit_ranks(mask, 1) | _suit_ranks(mask, 2) | _suit_ranks(mask, 3)


# --- values --------------------------------------------------------------------------


_STATE_FIELDS: Final = (
    "setup",
    "phase",
    "turn",
    "hands",
    "counts",
    "played",
    "table",
    "passed",
    "lock",
    "lock_run",
    "revolution",
    "out",
    "clean",
    "fouls",
    "miyako",
    "gives",
    "must_open",
    "discarded",
    "back",
    "respond",
    "start",
    "nlock",
    "nrun",
    "miyako_at",
    "extras",
)
"""The fields of :class:`State`, in constructor order."""
_MOVE_FIELDS: Final = (
    "seat",
    "cards",
    "is_pass",
    "as_cards",
    "declare",
    "choice",
    "exchange",
    "respond",
    "misplay",
)
_COMBO_FIELDS: Final = ("kind", "size", "rank", "suits", "joker", "cards", "as_cards", "seat")


def _repr(value: object, fields: tuple[str, ...]) -> str:
    """``Name(field=value, ...)``, as a dataclass or a named tuple shows itself."""
    items = ", ".join(f"{name}={getattr(value, name)!r}" for name in fields)
    return f"{type(value).__name__}({items})"


class Move:
    """One action: a play, a pass, or a give in the card exchange.

    ``as_cards`` is what the jokers stand for (record key ``as``), ``declare`` is
    ``"set"`` or ``"stairs"`` for an ambiguous one-card-plus-two-jokers lead (or
    ``"instant_win"`` for イッツー), ``choice`` answers an optional rule (11-back
    ``"up"``/``"down"``), and ``respond`` marks an out-of-turn action (record key
    ``respond``): a ♥3 answering a lone joker, an instant win declared by a seat
    whose turn it is not.

    A value, as :class:`State` is (every attribute ``Final``, equal and hashed by its
    fields).  Move generation builds thousands per game, so it is a plain class: cheap to
    build in pure Python and native under mypyc.
    """

    _fields: ClassVar[tuple[str, ...]] = _MOVE_FIELDS
    __slots__ = _MOVE_FIELDS

    seat: Final[int]
    cards: Final[CardSet]
    is_pass: Final[bool]
    as_cards: Final[CardSet]
    declare: Final[str | None]
    choice: Final[str | None]
    exchange: Final[bool]
    respond: Final[bool]
    misplay: Final[bool]
    """A misplay the referee records (プンリー, switch ``misplay``): ``cards`` are exposed."""

    def __init__(
        self,
        seat: int,
        cards: CardSet = 0,
        is_pass: bool = False,
        as_cards: CardSet = 0,
        declare: str | None = None,
        choice: str | None = None,
        exchange: bool = False,
        respond: bool = False,
        misplay: bool = False,
    ) -> None:
        self.seat = seat
        self.cards = cards
        self.is_pass = is_pass
        self.as_cards = as_cards
        self.declare = declare
        self.choice = choice
        self.exchange = exchange
        self.respond = respond
        self.misplay = misplay

    def _values(self) -> tuple[object, ...]:
        return (
            self.seat,
            self.cards,
            self.is_pass,
            self.as_cards,
            self.declare,
            self.choice,
            self.exchange,
            self.respond,
            self.misplay,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return _repr(self, Move._fields)

    def __reduce__(self) -> tuple[type[Move], tuple[object, ...]]:
        return Move, self._values()

    @classmethod
    def play(
        cls,
        seat: int,
        cards: CardSet | str | Sequence[str],
        *,
        as_: CardSet | str | Sequence[str] = 0,
        declare: str | None = None,
        choice: str | None = None,
        respond: bool = False,
    ) -> Move:
        """A play; ``cards`` and ``as_`` accept masks or card text (``as_`` also ``+H``
        / ``-H``, a joker beyond the ends of stairs, see :func:`parse_joker_targets`)."""
        return cls(
            seat,
            _mask(cards),
            as_cards=as_ if isinstance(as_, int) else parse_joker_targets(as_),
            declare=declare,
            choice=choice,
            respond=respond,
        )

    @classmethod
    def pass_turn(cls, seat: int) -> Move:
        return cls(seat, is_pass=True)

    @classmethod
    def give(cls, seat: int, cards: CardSet | str | Sequence[str]) -> Move:
        """A give in the card exchange (カード交換)."""
        return cls(seat, _mask(cards), exchange=True)

    @classmethod
    def misplayed(cls, seat: int, cards: CardSet | str | Sequence[str]) -> Move:
        """A misplay (プンリー) the referee records: ``cards`` stay ``seat``'s, face up."""
        return cls(seat, _mask(cards), misplay=True)

    def __str__(self) -> str:
        if self.is_pass:
            return f"P{self.seat}: pass"
        if self.misplay:
            return f"P{self.seat}: misplay " + " ".join(card_names(self.cards))
        text = " ".join(card_names(self.cards))
        if self.as_cards:
            text += " as " + " ".join(card_names(self.as_cards))
        if self.declare:
            text += f" ({self.declare})"
        if self.choice:
            text += f" [{self.choice}]"
        if self.respond:
            text += " (out of turn)"
        return f"P{self.seat}: {'give ' if self.exchange else ''}{text}"


def _mask(cards: CardSet | str | Sequence[str]) -> CardSet:
    if isinstance(cards, int):
        return cards
    return parse_cards(cards)


class Combo:
    """A combination on the table (or being played).

    ``rank`` is the set's rank (``13`` for jokers only) or the run's weakest rank
    in normal order; ``suits`` is the 4-bit mask of the natural suits (stairs: its
    suit; イーペーコー: its two suits; サンレンコー: the suits of its triples when all
    three match, else 0); ``as_cards`` what the jokers stand for, when known.

    A value, as :class:`State` is (every attribute ``Final``), with the named-tuple
    conveniences it had (``_fields``, ``_replace``): a plain class because under mypyc it
    compiles to a native one, whose attributes compiled code reads directly.
    """

    _fields: ClassVar[tuple[str, ...]] = _COMBO_FIELDS
    __slots__ = _COMBO_FIELDS

    kind: Final[int]
    size: Final[int]
    rank: Final[int]
    suits: Final[int]
    joker: Final[bool]
    cards: Final[CardSet]
    as_cards: Final[CardSet]
    seat: Final[int]

    def __init__(
        self,
        kind: int,
        size: int,
        rank: int,
        suits: int,
        joker: bool,
        cards: CardSet,
        as_cards: CardSet,
        seat: int,
    ) -> None:
        self.kind = kind
        self.size = size
        self.rank = rank
        self.suits = suits
        self.joker = joker
        self.cards = cards
        self.as_cards = as_cards
        self.seat = seat

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in Combo._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not Combo:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return _repr(self, Combo._fields)

    def __reduce__(self) -> tuple[type[Combo], tuple[object, ...]]:
        return Combo, self._values()

    def _replace(self, **changes: object) -> Combo:
        """A copy with some fields changed (as a named tuple's ``_replace``)."""
        values = {name: getattr(self, name) for name in Combo._fields}
        values.update(changes)
        return Combo(**values)

    def with_suits(self, suits: int) -> Combo:
        return Combo(
            self.kind, self.size, self.rank, suits, self.joker, self.cards, self.as_cards, self.seat
        )

    @property
    def name(self) -> str:
        if self.kind != SET:
            return KIND_NAMES[self.kind]
        return "single" if self.size == 1 else "set"

    @property
    def span(self) -> int:
        """Number of ranks a run covers (1 for a set)."""
        kind = self.kind
        if kind == STAIRS:
            return self.size
        if kind == DOUBLE_STAIRS:
            return self.size >> 1
        return 3 if kind == TRIPLE_RUN else 1


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game started from (shared by all its states; used by records)."""

    rules: RuleSet
    hands: tuple[CardSet | None, ...]
    counts: tuple[int, ...]
    blind: CardSet | None
    titles: tuple[str, ...] | None
    leader: int | None
    known: int
    """Seat mask of the hands the engine knows (the others are open-table seats)."""
    daifugo: int
    first_leader: int
    opening_card: CardSet
    exchange_to: tuple[int, ...]
    exchange_count: tuple[int, ...]
    exchange_strongest: tuple[bool, ...]
    deck: CardSet = (1 << 54) - 1
    """Every card of the ruleset's deck (one joker: bit 53 is not in it)."""
    returns: CardSet = SPADE_3
    """The cards that beat a lone joker (♠3 and/or ♥3)."""
    pass_on_lead: bool = False
    calls: bool = False
    """11-back 'choice': sets of Js are also listed with each call."""
    families: bool = False
    """イーペーコー or サンレンコー is on."""
    eleven_back: int = 0
    """0 off, 1 choice, 2 toggle."""
    reset_passes: bool = False
    joker_suits: bool = False
    suit_choice: bool = False
    """joker_suit_choice in force (with joker_suits): a set's jokers take chosen suits (13b)."""
    beyond_ends: bool = False
    """joker_beyond_ends: a joker in stairs may stand below the 3 or above the 2 (13a)."""
    number_lock: bool = False
    fouls: int = 2
    """foul_finishes: 0 none, 1 joker, 2 standard."""
    latest_lowest: bool = False
    respond_rule: bool = False
    """A lone joker opens an out-of-turn answer window (joker_return_out_of_turn)."""
    play_steps: tuple[Step, ...] = field(init=False, repr=False, compare=False)
    """The steps of :data:`PLAY_STEPS` this game uses, in order."""
    pass_steps: tuple[Step, ...] = field(init=False, repr=False, compare=False)
    """The steps of :data:`PASS_STEPS` this game uses, in order."""

    def __post_init__(self) -> None:
        # Worked out from the finished set-up, once per game: building a second Setup with
        # dataclasses.replace cost a third of new_game.
        object.__setattr__(self, "play_steps", _steps_in_use(PLAY_STEPS, self))
        object.__setattr__(self, "pass_steps", _steps_in_use(PASS_STEPS, self))


class Extras(NamedTuple):
    """State that only some rulesets use, in one field of :class:`State` so that every other
    game pays for one field, not three (a state is built on every move)."""

    pass_run: int = 0
    """Passes in a row since the last play (千日手, stalemate_passes)."""
    stalemate: tuple[int, ...] = ()
    """The seats still in the game when 千日手 ended it, in the order drawn for their places."""
    exposed: tuple[CardSet, ...] = ()
    """Per seat, the cards it holds face up after a misplay (プンリー); ``()`` before any."""


NO_EXTRAS: Final = Extras()


class State:
    """An immutable game state.  Build new ones with :func:`apply`, never by hand.

    Immutable by contract, not by a guard: every attribute is ``Final``, so mypy (the engine
    is checked with ``--strict``) refuses a write, and ``__slots__`` refuses a new attribute.
    Not a frozen dataclass: its generated ``__init__`` sets each field through
    ``object.__setattr__``, which nearly doubled the cost of a move, and under mypyc a
    dataclass's ``__init__`` stays interpreted while this one compiles to plain stores.
    Equality and hashing are a frozen dataclass's: every field, in :attr:`_fields` order.
    A new field goes into ``_fields``, ``__slots__``, the annotations and ``__init__``
    (and ``_Draft``).
    """

    _fields: ClassVar[tuple[str, ...]] = _STATE_FIELDS
    __slots__ = _STATE_FIELDS

    setup: Final[Setup]
    phase: Final[int]
    turn: Final[int]
    hands: Final[tuple[CardSet, ...]]
    """Held cards per seat (0 for open-table seats, whose cards are unknown)."""
    counts: Final[tuple[int, ...]]
    """Number of cards held per seat."""
    played: Final[CardSet]
    table: Final[Combo | None]
    passed: Final[int]
    lock: Final[int]
    lock_run: Final[int]
    revolution: Final[bool]
    out: Final[int]
    clean: Final[tuple[int, ...]]
    fouls: Final[tuple[int, ...]]
    miyako: Final[int]
    gives: Final[tuple[int, ...]]
    must_open: Final[CardSet]
    discarded: Final[CardSet]
    back: Final[int]
    """11-back trick order: -1 none (the revolution decides), 0 normal (上), 1 reversed (下)."""
    respond: Final[int]
    """Seat mask of the seats that may answer the last lone joker out of turn."""
    start: Final[bool]
    """No play or pass yet this game: the instant-win (イッツー) window is open."""
    nlock: Final[bool]
    """Number lock (数字しばり) on."""
    nrun: Final[int]
    """Consecutive one-step joker-free plays this trick (towards the number lock)."""
    miyako_at: Final[int]
    """Number of fouls when 都落ち happened (orders demotions under foul_order latest_lowest)."""
    extras: Final[Extras]
    """What only some rulesets use: ``pass_run``, ``stalemate``, ``exposed`` (read them as
    properties of the state)."""

    @property
    def pass_run(self) -> int:
        """Passes in a row since the last play (千日手, stalemate_passes)."""
        return self.extras.pass_run

    @property
    def stalemate(self) -> tuple[int, ...]:
        """The seats 千日手 placed by the draw, best first (``()`` unless it ended the game)."""
        return self.extras.stalemate

    @property
    def exposed(self) -> tuple[CardSet, ...]:
        """Per seat, the cards held face up after a misplay (プンリー); ``()`` before any."""
        return self.extras.exposed

    def __init__(
        self,
        setup: Setup,
        phase: int,
        turn: int,
        hands: tuple[CardSet, ...],
        counts: tuple[int, ...],
        played: CardSet,
        table: Combo | None,
        passed: int,
        lock: int,
        lock_run: int,
        revolution: bool,
        out: int,
        clean: tuple[int, ...],
        fouls: tuple[int, ...],
        miyako: int,
        gives: tuple[int, ...],
        must_open: CardSet,
        discarded: CardSet,
        back: int = -1,
        respond: int = 0,
        start: bool = False,
        nlock: bool = False,
        nrun: int = 0,
        miyako_at: int = 0,
        extras: Extras = NO_EXTRAS,
    ) -> None:
        self.setup = setup
        self.phase = phase
        self.turn = turn
        self.hands = hands
        self.counts = counts
        self.played = played
        self.table = table
        self.passed = passed
        self.lock = lock
        self.lock_run = lock_run
        self.revolution = revolution
        self.out = out
        self.clean = clean
        self.fouls = fouls
        self.miyako = miyako
        self.gives = gives
        self.must_open = must_open
        self.discarded = discarded
        self.back = back
        self.respond = respond
        self.start = start
        self.nlock = nlock
        self.nrun = nrun
        self.miyako_at = miyako_at
        self.extras = extras

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in State._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return _repr(self, State._fields)

    def __reduce__(self) -> tuple[type[State], tuple[object, ...]]:
        # Pickle and copy by the constructor: a compiled class has no default way.
        return State, self._values()

    @property
    def reversed(self) -> bool:
        """The effective order: the 11-back call if any, else the revolution."""
        return self.revolution if self.back < 0 else self.back == 1

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def seats(self) -> int:
        return len(self.counts)

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def hand(self, seat: int) -> CardSet | None:
        """The cards ``seat`` holds, or ``None`` for an open-table seat."""
        return self.hands[seat] if self.setup.known >> seat & 1 else None

    def placings(self) -> tuple[Placing, ...]:
        return placings(self)


# --- errors ----------------------------------------------------------------------------


def _illegal(code: str, rule: str, en: str, ja: str) -> IllegalMove:
    return IllegalMove(code, en, ja, rule)


# --- game start ------------------------------------------------------------------------


def _is_int_in(value: object, low: int, high: int) -> bool:
    """A real int (``True`` is not a seat) with ``low <= value < high``.

    Typed ``object`` on purpose: records and API clients send whatever JSON they like, and
    a bad value must become a clear error, never a crash.
    """
    return type(value) is int and low <= value < high


def new_game(
    rules: RuleSet,
    hands: Sequence[CardSet | str | Sequence[str] | None],
    *,
    blind: CardSet | str | Sequence[str] | None = None,
    titles: Sequence[str] | None = None,
    leader: int | None = None,
    counts: Sequence[int] | None = None,
) -> State:
    """The initial state of a game, with the keys of a record (record-format.md).

    ``hands[i] is None`` makes seat ``i`` an open-table seat whose dealt count is
    ``counts[i]``.  With ``titles`` (a later game) the game starts with the card
    exchange; otherwise with play.  Raises :class:`RecordError` for a bad set-up.
    """
    seats = rules.seats
    deck_jokers = JOKERS if rules.jokers == 2 else 1 << 52
    deck = NUMBERS | deck_jokers
    if len(hands) != seats:
        raise RecordError(f"{rules.key} is played by {seats} seats, not {len(hands)}", key="hands")
    masks: list[CardSet | None] = []
    seen = 0
    known = 0
    for i, hand in enumerate(hands):
        if hand is None:
            masks.append(None)
            continue
        mask = _mask(hand)
        if mask < 0 or mask > (1 << 54) - 1:
            raise RecordError("not a card set", key=f"hands[{i}]")
        k = joker_count(mask)
        if k:
            # Hands written separately all call their joker "JK" (bit 52): the
            # jokers are equivalent, so give each hand the next free joker bits.
            free = deck_jokers & ~seen
            if free.bit_count() < k:
                raise RecordError(
                    f"a {rules.key} deck has only {rules.jokers} joker(s)", key=f"hands[{i}]"
                )
            mask = (mask & NUMBERS) | (free if k == 2 else free & -free)
        if mask & seen:
            raise RecordError(
                f"card {card_names(mask & seen)[0]} is dealt twice", key=f"hands[{i}]"
            )
        seen |= mask
        known |= 1 << i
        masks.append(mask)
    blind_mask: CardSet | None = None
    if blind is not None:
        blind_mask = _mask(blind)
        if blind_mask & JOKERS:
            raise RecordError("a joker is never a blind card", key="blind")
        if blind_mask & seen:
            raise RecordError(
                f"blind card {card_names(blind_mask & seen)[0]} is also dealt", key="blind"
            )
        if blind_mask.bit_count() > rules.blind_cards:
            raise RecordError(f"{rules.key} removes {rules.blind_cards} blind cards", key="blind")
    if counts is not None:
        if len(counts) != seats:
            raise RecordError(f"expected {seats} counts", key="counts")
        for i, c in enumerate(counts):
            if not _is_int_in(c, 1, 55):
                raise RecordError(f"bad card count {c!r}", key=f"counts[{i}]")
            m = masks[i]
            if m is not None and m.bit_count() != c:
                raise RecordError(f"seat {i} is dealt {m.bit_count()} cards, not {c}", key="counts")
    count_list: list[int] = []
    for i, m in enumerate(masks):
        if m is not None:
            if not m:
                raise RecordError("every seat is dealt at least one card", key=f"hands[{i}]")
            count_list.append(m.bit_count())
        elif counts is None:
            raise RecordError(f"an unknown hand needs its dealt count (seat {i})", key="counts")
        else:
            count_list.append(counts[i])
    total = sum(count_list) + (blind_mask.bit_count() if blind_mask is not None else 0)
    if total > deck.bit_count():
        raise RecordError(f"{total} cards dealt from a {deck.bit_count()}-card deck", key="counts")

    titles_t: tuple[str, ...] | None = None
    daifugo = -1
    exchange_to = [-1] * seats
    exchange_count = [0] * seats
    exchange_strongest = [False] * seats
    if titles is not None:
        expected = TITLES.get(seats)
        titles_t = tuple(titles)
        if expected is None or sorted(titles_t) != sorted(expected):
            raise RecordError(f"titles must give each of {list(expected or ())} once", key="titles")
        daifugo = titles_t.index("daifugo")
        for i, title in enumerate(titles_t):
            duty = EXCHANGE_DUTIES.get(title)
            if duty is not None:
                exchange_to[i] = titles_t.index(duty[0])
                exchange_count[i] = duty[1]
                exchange_strongest[i] = duty[2]
                c = count_list[i]
                if c < duty[1]:
                    raise RecordError(f"seat {i} cannot give {duty[1]} cards", key="hands")

    if leader is not None and not _is_int_in(leader, 0, seats):
        raise RecordError(f"no seat {leader!r}", key="leader")

    opening = 0
    if titles_t is not None and rules.opening_card_every_game:
        # The opening card's holder is known only after the exchange (B12, D1).
        first = leader if leader is not None else -1
        if leader is None and known != (1 << seats) - 1:
            raise RecordError(
                "the opening card may be in an unknown hand: give the leader", key="leader"
            )
    elif titles_t is not None:
        first = leader if leader is not None else titles_t.index("daihinmin")
    else:
        holder, opening = _opening_card(rules, masks, blind_mask)
        if leader is not None:
            first = leader
            if holder != leader:
                opening = 0
        elif holder is None:
            if opening:
                raise RecordError(
                    "the opening card may be in an unknown hand: give the leader", key="leader"
                )
            first = 0
        else:
            first = holder
    setup = Setup(
        rules=rules,
        hands=tuple(masks),
        counts=tuple(count_list),
        blind=blind_mask,
        titles=titles_t,
        leader=leader,
        known=known,
        daifugo=daifugo,
        first_leader=first,
        opening_card=opening,
        exchange_to=tuple(exchange_to),
        exchange_count=tuple(exchange_count),
        exchange_strongest=tuple(exchange_strongest),
        deck=deck,
        returns=(SPADE_3 if rules.spade_three_return else 0)
        | (HEART_3 if rules.heart_three_return else 0),
        pass_on_lead=rules.pass_on_lead,
        calls=rules.eleven_back == "choice",
        families=rules.double_stairs or rules.triple_run,
        eleven_back=("off", "choice", "toggle").index(rules.eleven_back),
        reset_passes=rules.reset_passes_on_reverse,
        joker_suits=rules.lock_counts_joker_suits and rules.suit_lock,
        suit_choice=rules.joker_suit_choice and rules.lock_counts_joker_suits and rules.suit_lock,
        beyond_ends=rules.joker_beyond_ends,
        number_lock=rules.number_lock,
        fouls=("none", "joker", "standard").index(rules.foul_finishes),
        latest_lowest=rules.foul_order == "latest_lowest",
        respond_rule=rules.joker_return_out_of_turn
        and bool(rules.spade_three_return or rules.heart_three_return),
    )
    if not rules.opening_card_required:
        opening = 0
    exchanging = titles_t is not None
    return State(
        setup=setup,
        phase=PHASE_EXCHANGE if exchanging else PHASE_PLAY,
        turn=-1 if exchanging else first,
        hands=tuple(m or 0 for m in masks),
        counts=tuple(count_list),
        played=0,
        table=None,
        passed=0,
        lock=0,
        lock_run=0,
        revolution=False,
        out=0,
        clean=(),
        fouls=(),
        miyako=-1,
        gives=tuple(-1 if n else 0 for n in exchange_count),
        must_open=opening,
        discarded=0,
        start=rules.instant_win and not exchanging,
    )


def _opening_card(
    rules: RuleSet, hands: Sequence[CardSet | None], blind: CardSet | None
) -> tuple[int | None, CardSet]:
    """(holder, card) of the opening card (A4): the first listed card still in play."""
    some_unknown = any(h is None for h in hands)
    for name in rules.first_lead_cards:
        bit = parse_cards(name)
        if blind is not None and blind & bit:
            continue
        for seat, hand in enumerate(hands):
            if hand is not None and hand & bit:
                return seat, bit
        if some_unknown:
            return None, bit
    return None, 0


# --- move generation -------------------------------------------------------------------

_PASSES: Final = tuple(Move(seat, is_pass=True) for seat in range(8))


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move (listed at once, returned as an iterator).  Moves are fully
    specified: stairs with jokers carry ``as_cards`` (one move per reading, beyond the 3
    or the 2 too with ``joker_beyond_ends``), sets with jokers carry the suits the
    jokers stand for with ``joker_suit_choice`` (one move per suit set), a
    one-card-plus-two-jokers lead carries ``declare``, a set of Js under 11-back
    ``choice`` comes plain and with each call.
    The two jokers are equivalent, so a move uses the lowest joker bits the player
    holds.  In the play phase the in-turn seat's moves come first, then the
    out-of-turn actions other seats may take now (``respond=True``: a return card
    answering a lone joker, an instant win); instant wins of open-table seats are
    not listed.  In the exchange phase every pending seat's gives are listed (the
    exchange is simultaneous, or the lower titles first)."""
    # Built as a list: nested generators cost a frame switch per move and level.
    out: list[Move] = []
    phase = state.phase
    if phase == PHASE_PLAY:
        seat = state.turn
        setup = state.setup
        if state.table is not None or (setup.pass_on_lead and not state.must_open):
            out.append(_PASSES[seat])
        if setup.known >> seat & 1:
            _plays(out, state, seat, state.hands[seat], 99)
        else:
            _plays(out, state, seat, _pool(state), state.counts[seat])
        if setup.calls:
            _add_calls(out, state)
        if state.respond:
            _responses(out, state)
        if state.start:
            _instant_wins(out, state)
    elif phase == PHASE_EXCHANGE:
        _exchange_moves(out, state)
    return iter(out)


def _add_calls(out: list[Move], state: State) -> None:
    """Each set of Js also with the 11-back calls ``up`` and ``down`` (a call is optional),
    right after the plain one."""
    table = state.table
    if table is not None and table.kind != SET:
        return
    jacks = RANK_MASK[RANK_J]
    plays = out[:]
    del out[:]
    for m in plays:
        out.append(m)
        nat = m.cards & NUMBERS
        if nat and not nat & ~jacks and m.declare != "stairs":
            out.append(Move(m.seat, m.cards, False, m.as_cards, m.declare, "up"))
            out.append(Move(m.seat, m.cards, False, m.as_cards, m.declare, "down"))


def _return_allowed(state: State, card: CardSet) -> bool:
    """A return card (♠3 = suit bit 1, ♥3 = suit bit 2) against the lock (A7)."""
    lock = state.lock
    return not lock or bool(lock & card) or state.setup.rules.spade3_ignores_lock


def _responses(out: list[Move], state: State) -> None:
    setup = state.setup
    for seat in range(len(state.counts)):
        if not state.respond >> seat & 1:
            continue
        hand = state.hands[seat] if setup.known >> seat & 1 else _pool(state)
        for card in (SPADE_3, HEART_3):
            if setup.returns & hand & card and _return_allowed(state, card):
                out.append(Move(seat, card, respond=True))


def _is_straight(hand: CardSet) -> bool:
    """イッツー: exactly one number card of each rank 3…2 (jokers besides are allowed)."""
    nat = hand & NUMBERS
    return nat.bit_count() == 13 and _ranks_of(nat) == 0x1FFF


def _instant_wins(out: list[Move], state: State) -> None:
    known = state.setup.known
    for seat in range(len(state.counts)):
        if known >> seat & 1 and not state.out >> seat & 1 and _is_straight(state.hands[seat]):
            out.append(
                Move(seat, state.hands[seat], declare=INSTANT_WIN, respond=seat != state.turn)
            )


def _starts(state: State, table: Combo, rev: bool) -> Sequence[int]:
    """Weakest ranks a run of the table's kind and span may start at to beat it."""
    span = table.span
    rank = table.rank
    if state.setup.rules.stairs_overlap:
        starts = range(rank - 1, -1, -1) if rev else range(rank + 1, 14 - span)
    else:
        starts = range(rank - span, -1, -1) if rev else range(rank + span, 14 - span)
    if state.nlock:
        need = rank - 1 if rev else rank + 1
        return (need,) if need in starts else ()
    return starts


def _plays(out: list[Move], state: State, seat: int, hand: CardSet, cap: int) -> None:
    setup = state.setup
    rules = setup.rules
    jokers = hand & JOKERS
    nj = _POPCOUNT[jokers >> 52]
    j1 = jokers & -jokers
    wild = 0 if rules.joker_single_only else nj
    set_only = rules.one_card_two_jokers == "set"
    jfill = (0, j1, jokers if nj == 2 else 0)
    # The rule 13a / 13b readings need a wild joker in hand: without one they cost nothing.
    suit_choice = beyond = False
    if wild:
        suit_choice = setup.suit_choice
        beyond = setup.beyond_ends
    table = state.table
    if table is None:
        must = state.must_open
        for r in range(13):
            m = (hand >> (4 * r)) & 15
            if not m:
                continue
            base = 4 * r
            for sub in _ALL_SUBSETS[m]:
                cards = sub << base
                size = _POPCOUNT[sub]
                if size > cap:
                    continue
                top = min(wild, cap - size)
                if must and not cards & must:
                    continue
                out.append(Move(seat, cards))
                if top >= 1:
                    if suit_choice:
                        _suit_choices(out, seat, cards, sub, base, j1, 0, None)
                        if top >= 2:
                            pair = None if size > 1 or set_only else "set"
                            _suit_choices(out, seat, cards, sub, base, jokers, 0, pair)
                        continue
                    out.append(Move(seat, cards | j1))
                    if top >= 2:
                        if size == 1:
                            out.append(
                                Move(seat, cards | jokers, False, 0, None if set_only else "set")
                            )
                        else:
                            out.append(Move(seat, cards | jokers))
        if nj and not must:
            out.append(Move(seat, j1))
            if nj == 2 and rules.joker_pair_allowed and wild and cap >= 2:
                out.append(Move(seat, jokers))
        for suit in range(4):
            ranks = _suit_ranks(hand, suit)
            if _POPCOUNT[ranks] + wild < 3:
                continue
            for a in range(11):
                for length in range(3, min(13 - a, cap) + 1):
                    run = _RUN[a][length]
                    missing = run & ~ranks
                    nm = _POPCOUNT[missing]
                    if nm > wild:
                        break
                    _stairs_moves(
                        out, seat, suit, run, missing, wild - nm, jfill, True, must, set_only
                    )
        if beyond:
            for suit in range(4):
                ranks = _suit_ranks(hand, suit)
                _beyond_leads(out, seat, suit, ranks, wild, jfill, cap, must, set_only)
        if setup.families:
            _family_leads(out, state, seat, hand, cap, must)
        return

    rev = state.revolution if state.back < 0 else state.back == 1
    lock = state.lock
    n = table.size
    if table.kind == SET:
        if table.rank == JOKER_RANK:
            if n == 1:
                ret = setup.returns & hand
                for card in (SPADE_3, HEART_3):
                    if ret & card and _return_allowed(state, card):
                        out.append(Move(seat, card))
            return
        if n > cap:
            return
        if state.nlock:
            need = table.rank - 1 if rev else table.rank + 1
            ranks_iter: Sequence[int] = (need,) if 0 <= need < 13 else ()
        else:
            ranks_iter = range(table.rank - 1, -1, -1) if rev else range(table.rank + 1, 13)
        for r in ranks_iter:
            m = (hand >> (4 * r)) & 15
            if lock:
                m &= lock
            if not m:
                continue
            base = 4 * r
            have = _POPCOUNT[m]
            for k in range(max(0, n - have), min(wild, n - 1) + 1):
                fill = jfill[k]
                if k and suit_choice:
                    for sub in _SUBSETS[m][n - k]:
                        _suit_choices(out, seat, sub << base, sub, base, fill, lock, None)
                    continue
                for sub in _SUBSETS[m][n - k]:
                    out.append(Move(seat, (sub << base) | fill))
        if nj:
            if n == 1:
                out.append(Move(seat, j1))
            elif n == 2 and nj == 2 and rules.joker_pair_allowed and wild:
                out.append(Move(seat, jokers))
        return

    if n > cap:
        return
    if table.kind != STAIRS:
        _family_follows(out, state, seat, hand, _starts(state, table, rev))
        return
    starts = _starts(state, table, rev)
    for suit in range(4):
        if lock and not lock >> suit & 1:
            continue
        ranks = _suit_ranks(hand, suit)
        if _POPCOUNT[ranks] + wild < n:
            continue
        for a in starts:
            run = _RUN[a][n]
            missing = run & ~ranks
            nm = _POPCOUNT[missing]
            if nm > wild:
                continue
            _stairs_moves(out, seat, suit, run, missing, wild - nm, jfill, False, 0, set_only)
    ends = _beyond_starts(state, table, rev) if beyond else ()
    if ends:
        for suit in range(4):
            if lock and not lock >> suit & 1:
                continue
            ranks = _suit_ranks(hand, suit)
            for a in ends:
                _beyond_run(out, seat, suit, ranks, a, n, wild, jfill, False, 0, set_only)


def _double_stairs(
    out: list[Move],
    seat: int,
    hand: CardSet,
    lengths: Sequence[int],
    starts: Sequence[int],
    lock: int,
    must: CardSet,
) -> None:
    """イーペーコー of the given run lengths and weakest ranks (number cards only)."""
    sr = [_suit_ranks(hand, s) for s in range(4)]
    for s1 in range(3):
        for s2 in range(s1 + 1, 4):
            if lock and lock != (1 << s1) | (1 << s2):
                continue
            common = sr[s1] & sr[s2]
            if _POPCOUNT[common] < 3:
                continue
            for a in starts:
                for length in lengths:
                    run = _RUN[a][length] if a + length <= 13 else 0
                    if not run or run & ~common:
                        break
                    spread = _SPREAD[run]
                    cards = (spread << s1) | (spread << s2)
                    if must and not cards & must:
                        continue
                    out.append(Move(seat, cards))


def _triple_runs(
    out: list[Move], seat: int, hand: CardSet, starts: Sequence[int], lock: int, must: CardSet
) -> None:
    """サンレンコー starting at the given ranks (number cards only)."""
    subsets = _SUBSETS
    for a in starts:
        base = 4 * a
        m0 = (hand >> base) & 15
        m1 = (hand >> (base + 4)) & 15
        m2 = (hand >> (base + 8)) & 15
        if _POPCOUNT[m0] < 3 or _POPCOUNT[m1] < 3 or _POPCOUNT[m2] < 3:
            continue
        for x in subsets[m0][3]:
            for y in subsets[m1][3]:
                for z in subsets[m2][3]:
                    if lock and not x == y == z == lock:
                        continue
                    cards = (x << base) | (y << (base + 4)) | (z << (base + 8))
                    if must and not cards & must:
                        continue
                    out.append(Move(seat, cards))


def _family_leads(
    out: list[Move], state: State, seat: int, hand: CardSet, cap: int, must: CardSet
) -> None:
    rules = state.setup.rules
    if rules.double_stairs and cap >= 6:
        _double_stairs(out, seat, hand, range(3, min(13, cap >> 1) + 1), range(11), 0, must)
    if rules.triple_run and cap >= 9:
        _triple_runs(out, seat, hand, range(11), 0, must)


def _family_follows(
    out: list[Move], state: State, seat: int, hand: CardSet, starts: Sequence[int]
) -> None:
    table = state.table
    assert table is not None
    if table.kind == DOUBLE_STAIRS:
        _double_stairs(out, seat, hand, (table.size >> 1,), starts, state.lock, 0)
    else:
        _triple_runs(out, seat, hand, starts, state.lock, 0)


def _stairs_moves(
    out: list[Move],
    seat: int,
    suit: int,
    run: int,
    missing: int,
    spare: int,
    jfill: tuple[CardSet, ...],
    leading: bool,
    must: CardSet,
    set_only: bool,
) -> None:
    """Stairs on ``run`` (a rank mask): jokers on every missing rank, and ``spare``
    jokers more standing in for ranks the player holds (a distinct move).  With
    ``set_only`` one card plus two jokers is never stairs (one_card_two_jokers)."""
    spread = _SPREAD
    options = [missing]
    if spare:
        present = _BITS13[run & ~missing]
        options.extend(missing | b for b in present)
        if spare == 2:
            options.extend(missing | b1 | b2 for b1, b2 in combinations(present, 2))
    for jpos in options:
        nat = spread[run & ~jpos] << suit
        if must and not nat & must:
            continue
        k = _POPCOUNT[jpos]
        declare = None
        if k == 2 and _POPCOUNT[run & ~jpos] == 1:
            if set_only:
                continue
            if leading:
                declare = "stairs"
        out.append(Move(seat, nat | jfill[k], False, spread[jpos] << suit if k else 0, declare))


def _beyond_run(
    out: list[Move],
    seat: int,
    suit: int,
    ranks: int,
    start: int,
    length: int,
    wild: int,
    jfill: tuple[CardSet, ...],
    leading: bool,
    must: CardSet,
    set_only: bool,
) -> None:
    """Stairs on positions ``start`` … ``start + length - 1`` reaching position -1
    (below 3) and/or 13 (above 2), which only a joker may hold (joker_beyond_ends); as
    :func:`_stairs_moves` for the positions between, kept apart so that it stays lean."""
    below = 1 if start < 0 else 0
    above = 1 if start + length > 13 else 0
    low = start + below
    run = _RUN[low][start + length - above - low]
    missing = run & ~ranks
    outside = below + above
    need = _POPCOUNT[missing] + outside
    if need > wild:
        return
    beyond = (below << (BELOW_3 + suit)) | (above << (ABOVE_2 + suit))
    options = [missing]
    if need < wild:  # one joker is left over (two at most, one of them beyond the end)
        options.extend(missing | b for b in _BITS13[run & ~missing])
    for jpos in options:
        nat = _SPREAD[run & ~jpos] << suit
        if must and not nat & must:
            continue
        k = _POPCOUNT[jpos] + outside
        declare = None
        if k == 2 and _POPCOUNT[run & ~jpos] == 1:
            if set_only:
                continue
            if leading:
                declare = "stairs"
        out.append(Move(seat, nat | jfill[k], False, (_SPREAD[jpos] << suit) | beyond, declare))


def _beyond_leads(
    out: list[Move],
    seat: int,
    suit: int,
    ranks: int,
    wild: int,
    jfill: tuple[CardSet, ...],
    cap: int,
    must: CardSet,
    set_only: bool,
) -> None:
    """Led stairs of one suit with a joker below its 3 or above its 2 (joker_beyond_ends)."""
    longest = min(15, cap)
    for length in range(3, min(14, longest) + 1):
        if _POPCOUNT[_RUN[0][length - 1] & ~ranks] >= wild:
            break  # longer runs from below 3 miss at least as many ranks
        _beyond_run(out, seat, suit, ranks, -1, length, wild, jfill, True, must, set_only)
    for length in range(3, min(14, longest) + 1):
        if _POPCOUNT[_RUN[14 - length][length - 1] & ~ranks] >= wild:
            break
        _beyond_run(out, seat, suit, ranks, 14 - length, length, wild, jfill, True, must, set_only)
    if longest == 15:
        _beyond_run(out, seat, suit, ranks, -1, 15, wild, jfill, True, must, set_only)


def _beyond_starts(state: State, table: Combo, rev: bool) -> tuple[int, ...]:
    """Starts of runs reaching beyond the 3 or the 2 that beat the stairs on the table."""
    n = table.size
    if n > 15:
        return ()
    need = (table.rank - 1 if rev else table.rank + 1) if state.nlock else None
    overlap = state.setup.rules.stairs_overlap
    return tuple(
        a
        for a in ((-1, 14 - n) if n < 15 else (-1,))
        if _run_beats(a, table, rev, overlap) and (need is None or a == need)
    )


def _suit_choices(
    out: list[Move],
    seat: int,
    cards: CardSet,
    sub: int,
    base: int,
    jokers: CardSet,
    lock: int,
    declare: str | None,
) -> None:
    """A set (natural suits ``sub`` at card bit ``base``) with ``jokers``, once per set of
    suits the jokers stand for (joker_suit_choice).  A joker finding no free suit (in a
    set of five or more) stands for none; under a lock only the locked suits fit."""
    free = 15 & ~sub
    want = min(_POPCOUNT[jokers >> 52], _POPCOUNT[free])
    if not want:
        out.append(Move(seat, cards | jokers, False, 0, declare))
        return
    for suits in _SUBSETS[free][want]:
        if lock and sub | suits != lock:
            continue
        out.append(Move(seat, cards | jokers, False, suits << base, declare))


def _exchange_moves(out: list[Move], state: State) -> None:
    setup = state.setup
    wait = setup.rules.exchange_order == "lower_first" and _lower_pending(state)
    for seat, given in enumerate(state.gives):
        if given != -1 or (wait and not setup.exchange_strongest[seat]):
            continue
        n = setup.exchange_count[seat]
        if setup.known >> seat & 1:
            hand = state.hands[seat]
            strongest = setup.exchange_strongest[seat]
        else:
            hand = _pool(state)
            if setup.rules.exchange_order != "lower_first":
                hand &= ~_given_so_far(state)
            strongest = False
        # The two jokers are equivalent: offer the lower one, as play does.
        jokers = hand & JOKERS
        singles = [1 << c for c in range(52) if hand >> c & 1]
        if jokers:
            singles.append(jokers & -jokers)
        gives = [sum(combo) for combo in combinations(singles, n)]
        if n == 2 and jokers == JOKERS:
            gives.append(JOKERS)
        for give in gives:
            if strongest and _min_strength(give) < _max_strength(hand & ~give):
                continue
            out.append(Move(seat, give, exchange=True))


def _lower_pending(state: State) -> bool:
    """Whether a lower title (who must give its strongest) has yet to give."""
    strongest = state.setup.exchange_strongest
    return any(g == -1 and strongest[i] for i, g in enumerate(state.gives))


def _min_strength(mask: CardSet) -> int:
    nat = mask & NUMBERS
    return ((nat & -nat).bit_length() - 1) >> 2 if nat else JOKER_RANK


def _max_strength(mask: CardSet) -> int:
    if mask & JOKERS:
        return JOKER_RANK
    return (mask.bit_length() - 1) >> 2 if mask else -1


def _pool(state: State) -> CardSet:
    """Cards an open-table seat might hold: neither played, known elsewhere, nor blind."""
    accounted = state.played | state.discarded
    for hand in state.hands:
        accounted |= hand
    blind = state.setup.blind
    if blind is not None:
        accounted |= blind
    return state.setup.deck & ~accounted


def _given_so_far(state: State) -> CardSet:
    given = 0
    for g in state.gives:
        if g > 0:
            given |= g
    return given


# --- checked apply ---------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Apply ``move`` after checking it fully; raises :class:`IllegalMove` if it is illegal."""
    if not isinstance(move, Move):
        raise EngineError(f"not a Move: {move!r}", code="invalid_move")
    setup = state.setup
    seat = move.seat
    seats = len(state.counts)
    if not _is_int_in(seat, 0, seats):
        raise _illegal(
            "not_your_turn", "seats", f"there is no seat {seat!r}", f"席 {seat!r} はありません"
        )
    if state.phase == PHASE_OVER:
        raise _illegal(
            "game_over", "JDF §21 game end", "the game is over", "ゲームは終了しています"
        )
    for name, value, end in (("cards", move.cards, 1 << 54), ("as", move.as_cards, 1 << 62)):
        if not _is_int_in(value, 0, end):
            raise _illegal(
                "unknown_card", "cards", f"{name}: not a card set", f"{name}: カードではありません"
            )
    if move.misplay:
        return _apply_misplay(state, move)
    if move.choice is not None and not setup.calls:
        raise _illegal(
            "choice_invalid",
            f"{setup.rules.key} has no optional rules",
            "this ruleset has no optional rule to choose",
            "このルールに選択はありません",
        )
    if state.phase == PHASE_EXCHANGE:
        if not move.exchange:
            raise _illegal(
                "exchange_invalid",
                "JDF §15 exchange",
                "the card exchange must be completed before play",
                "カード交換が終わるまでプレイできません",
            )
        return _apply_give(state, move)
    if move.exchange:
        raise _illegal(
            "exchange_invalid",
            "JDF §15 exchange",
            "there is no card exchange now",
            "今はカード交換の時ではありません",
        )
    bit = 1 << seat
    if state.out & bit:
        raise _illegal(
            "not_your_turn",
            "JDF §16 finishing",
            f"seat {seat} is already out",
            f"{seat}番席はすでにあがっています",
        )
    if move.declare == INSTANT_WIN and setup.rules.instant_win:
        return _apply_instant_win(state, move)
    if move.respond:
        return _apply_response(state, move)
    if state.passed & bit:
        raise _illegal(
            "already_passed",
            "JDF §8 passing",
            f"seat {seat} has passed and may not play until the trick flows",
            f"{seat}番席はパスしたので、場が流れるまで出せません",
        )
    if seat != state.turn:
        raise _illegal(
            "not_your_turn",
            "JDF §9 turn order",
            f"it is seat {state.turn}'s turn, not seat {seat}'s",
            f"{state.turn}番席の番です（{seat}番席ではありません）",
        )
    if move.is_pass:
        if move.cards or move.as_cards or move.declare is not None:
            raise _illegal(
                "invalid_combination",
                "JDF §8 passing",
                "a pass plays no cards",
                "パスではカードを出せません",
            )
        if state.table is None and (not setup.pass_on_lead or state.must_open):
            raise _illegal(
                "must_lead",
                "JDF §7 leading",
                "the leader may not pass",
                "親はパスできません",
            )
        events: list[Event] = []
        return _advance_pass(state, seat, events), tuple(events)
    cards = _own(state, seat, move.cards)
    combo = _read(state, seat, cards, move.as_cards, move.declare)
    if state.must_open and not cards & state.must_open:
        name = card_names(state.must_open)[0]
        raise _illegal(
            "must_include_opening_card",
            "JDF §22 first lead (A4)",
            f"the first play must include {name}",
            f"最初の手には {name} を含めなければなりません",
        )
    _check_against_table(state, combo)
    choice = move.choice
    if choice is not None:
        if choice not in CHOICES:
            raise _illegal(
                "choice_invalid",
                "11-back (イレブンバック)",
                f"an 11-back call is 'up' or 'down', not {choice!r}",
                "イレブンバックの宣言は up か down です",
            )
        if combo.kind != SET or combo.rank != RANK_J:
            raise _illegal(
                "choice_invalid",
                "11-back (イレブンバック)",
                "only a set of Js (not in stairs) may call up or down",
                "上・下を宣言できるのは J の組だけです（階段は不可）",
            )
    events = []
    return _advance_play(state, seat, combo, events, choice), tuple(events)


def _misplay_invalid(en: str, ja: str) -> IllegalMove:
    return _illegal("misplay_invalid", "プンリー misplay (gekijo §2.1 rule 13, B10)", en, ja)


def _apply_misplay(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """プンリー (gekijo §2.1 rule 13, B10): the referee records a misplay; the cards stay the
    offender's, exposed face up to everyone, and may be played later. Nothing else changes:
    not the turn, the table, the passes, nor any window."""
    setup = state.setup
    seat = move.seat
    if not setup.rules.misplay:
        raise _illegal(
            "misplay_not_allowed",
            f"{setup.rules.key}: switch misplay",
            "this ruleset does not record misplays",
            "このルールではプンリー（誤出し）を記録しません",
        )
    if (
        move.is_pass
        or move.as_cards
        or move.declare is not None
        or move.choice is not None
        or move.exchange
        or move.respond
    ):
        raise _misplay_invalid(
            "a misplay only names the cards exposed", "プンリーは出たカードだけを指定します"
        )
    if state.phase != PHASE_PLAY:
        raise _misplay_invalid(
            "a misplay is recorded during play", "プンリーはプレイ中にだけ記録できます"
        )
    if state.out >> seat & 1:
        raise _misplay_invalid(f"seat {seat} is already out", f"{seat}番席はすでにあがっています")
    cards = move.cards
    if not cards:
        raise _misplay_invalid(
            "name the cards that were misplayed", "誤って出したカードを指定してください"
        )
    k = joker_count(cards)
    known = setup.known >> seat & 1
    hand = state.hands[seat] if known else _pool(state)
    if k:
        jokers = lowest_jokers(hand & ~_exposed(state, seat), k) or lowest_jokers(hand, k)
        cards = (cards & NUMBERS) | jokers if jokers else cards
    exposed = state.exposed or (0,) * len(state.counts)
    missing = cards & ~hand
    if missing or (
        not known and cards.bit_count() > state.counts[seat] - exposed[seat].bit_count()
    ):
        name = card_names(missing)[0] if missing else ""
        raise _misplay_invalid(
            f"seat {seat} does not hold {name or 'that many cards'}",
            f"{seat}番席は {name or 'その枚数のカード'} を持っていません",
        )
    shown = 0
    for e in exposed:
        shown |= e
    if cards & shown:
        name = card_names(cards & shown)[0]
        raise _misplay_invalid(f"{name} is already exposed", f"{name} はすでに公開されています")
    d = _Draft(state, seat, [])
    d.extras = d.extras._replace(
        exposed=(*exposed[:seat], exposed[seat] | cards, *exposed[seat + 1 :])
    )
    events: tuple[Event, ...] = (Misplay(seat, cards),)
    return d.freeze(), events


def _exposed(state: State, seat: int) -> CardSet:
    return state.exposed[seat] if state.exposed else 0


def _apply_response(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """An out-of-turn answer to a lone joker (gekijo ♥3, REFERENCE §2.2 B2)."""
    seat = move.seat
    rule = "out-of-turn answer to a joker (B2)"
    if move.is_pass or move.as_cards or move.declare is not None or move.choice is not None:
        raise _illegal(
            "response_invalid",
            rule,
            "an out-of-turn answer is one return card, nothing else",
            "割り込みで出せるのは返しのカード1枚だけです",
        )
    if seat == state.turn:
        raise _illegal(
            "response_invalid",
            rule,
            f"it is seat {seat}'s turn: play without respond",
            f"{seat}番席の番です。割り込みではなく普通に出してください",
        )
    if not state.respond >> seat & 1:
        raise _illegal(
            "response_invalid",
            rule,
            f"seat {seat} has no out-of-turn answer open now",
            f"{seat}番席は今割り込めません",
        )
    cards = _own(state, seat, move.cards)
    if cards.bit_count() != 1 or not cards & state.setup.returns:
        raise _illegal(
            "response_invalid",
            rule,
            "only a return card answers a lone joker out of turn",
            "ジョーカーに割り込めるのは返しのカードだけです",
        )
    if not _return_allowed(state, cards):
        raise _locked(state.lock, "suit lock (A7: the lock applies to the return)")
    combo = Combo(SET, 1, 0, cards, False, cards, 0, seat)
    events: list[Event] = []
    return _advance_play(state, seat, combo, events, None, True), tuple(events)


def _apply_instant_win(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """イッツー (REFERENCE §2.1 rule 14): the whole hand, one card of each rank."""
    seat = move.seat
    rule = "イッツー instant win (§2.1 rule 14)"
    if move.is_pass or move.as_cards or move.choice is not None:
        raise _illegal(
            "instant_win_invalid",
            rule,
            "an instant win only shows the hand",
            "手札を見せるだけです",
        )
    if move.respond != (seat != state.turn):
        if move.respond:
            raise _illegal(
                "response_invalid",
                rule,
                f"it is seat {seat}'s turn: declare without respond",
                f"{seat}番席の番です。割り込みではありません",
            )
        raise _illegal(
            "not_your_turn",
            rule,
            "out of turn an instant win needs respond",
            "手番外の宣言には respond が必要です",
        )
    if not state.start:
        raise _illegal(
            "instant_win_invalid",
            rule,
            "an instant win is declared before the first play",
            "イッツーは最初の手の前にだけ宣言できます",
        )
    cards = _own(state, seat, move.cards)
    if cards.bit_count() != state.counts[seat] or not _is_straight(cards):
        raise _illegal(
            "instant_win_invalid",
            rule,
            "show the whole hand: exactly one card of each rank 3…2 (jokers besides)",
            "手札全部（3〜2 を1枚ずつ、ほかはジョーカー）を見せてください",
        )
    events: list[Event] = []
    return _instant_win(state, seat, cards, events), tuple(events)


def is_legal(state: State, move: Move) -> bool:
    """Whether :func:`apply` accepts ``move``."""
    try:
        apply(state, move)
    except EngineError:
        return False
    return True


def _own(state: State, seat: int, cards: CardSet) -> CardSet:
    """``cards`` with its jokers mapped onto the seat's; raises unless the seat may hold them."""
    if not cards:
        raise _illegal(
            "invalid_combination", "JDF §5 combinations", "no cards played", "カードがありません"
        )
    k = joker_count(cards)
    if state.setup.known >> seat & 1:
        hand = state.hands[seat]
    else:
        hand = _pool(state)
        if state.phase == PHASE_EXCHANGE and state.setup.rules.exchange_order != "lower_first":
            hand &= ~_given_so_far(state)
        if cards.bit_count() > state.counts[seat]:
            raise _illegal(
                "card_not_in_hand",
                "open table: cards dealt",
                f"seat {seat} holds only {state.counts[seat]} cards",
                f"{seat}番席の手札は {state.counts[seat]} 枚しかありません",
            )
    if k:
        jokers = lowest_jokers(hand, k)
        if not jokers:
            raise _illegal(
                "card_not_in_hand",
                "possession",
                f"seat {seat} does not hold {k} joker(s)",
                f"{seat}番席はジョーカーを {k} 枚持っていません",
            )
        cards = (cards & NUMBERS) | jokers
    missing = cards & ~hand
    if missing:
        name = card_names(missing)[0]
        raise _illegal(
            "card_not_in_hand",
            "possession",
            f"seat {seat} does not hold {name}",
            f"{seat}番席は {name} を持っていません",
        )
    return cards


def _bad_as(en: str, ja: str) -> IllegalMove:
    return _illegal("bad_joker_assignment", "JDF §5 jokers (A9)", en, ja)


def _read(state: State, seat: int, cards: CardSet, as_cards: CardSet, declare: str | None) -> Combo:
    """Classify a play (JDF §5, §24, A5, A9); raises :class:`IllegalMove`."""
    setup = state.setup
    rules = setup.rules
    nat = cards & NUMBERS
    k = joker_count(cards)
    size = cards.bit_count()
    table = state.table
    suit_choice = setup.suit_choice
    if declare is not None and declare not in ("set", "stairs"):
        raise _illegal(
            "choice_invalid",
            "JDF §24 declaration",
            f"declare must be 'set' or 'stairs', not {declare!r}",
            "宣言は set か stairs です",
        )
    if k and size > 1 and rules.joker_single_only:
        raise _illegal(
            "joker_single_only",
            "joker single only (gekijo §2.1 rule 10)",
            "the joker may only be played on its own",
            "ジョーカーは単独でしか出せません",
        )
    if as_cards:
        if as_cards & JOKERS:
            raise _bad_as(
                "a joker cannot stand for a joker", "ジョーカーはジョーカーの代わりになりません"
            )
        if k == 0:
            raise _bad_as(
                "'as' is given but no joker is played", "ジョーカーがないのに as があります"
            )
        # With joker_suit_choice a joker in a set of five or more may find no suit left.
        if as_cards.bit_count() != k and not (suit_choice and as_cards.bit_count() < k):
            raise _bad_as("'as' must give one card per joker", "as はジョーカー1枚につき1枚です")
        if as_cards & nat:
            raise _bad_as(
                "a joker cannot stand for a card that is also played",
                "出したカードと同じカードの代わりにはなりません",
            )
    if not nat:
        if as_cards:
            raise _bad_as(
                "jokers on their own stand for no card", "ジョーカーだけでは代わりがありません"
            )
        if declare == "stairs":
            raise _invalid("jokers alone are not stairs", "ジョーカーだけでは階段になりません")
        if k == 2 and not rules.joker_pair_allowed:
            raise _illegal(
                "invalid_combination",
                "JDF A5 joker pair",
                "the two jokers are not a pair under these rules",
                "このルールではジョーカー2枚はペアになりません",
            )
        return Combo(SET, k, JOKER_RANK, 0, True, cards, 0, seat)
    low = nat & -nat
    lo = (low.bit_length() - 1) >> 2
    hi = (nat.bit_length() - 1) >> 2
    suit = (low.bit_length() - 1) & 3
    set_ok = lo == hi
    stairs_ok = size >= 3 and not nat & ~SUIT_MASK[suit] and hi - lo + 1 <= size
    if set_ok and stairs_ok and rules.one_card_two_jokers == "set":
        if declare == "stairs":
            raise _invalid(
                "one card plus two jokers is always a set", "1枚とジョーカー2枚は常に組です"
            )
        is_set = True
    elif set_ok and stairs_ok:
        kind = declare
        if kind is None and table is not None:
            kind = "stairs" if table.kind == STAIRS else "set"
        if kind is None:
            raise _illegal(
                "choice_required",
                "JDF §24 one card plus two jokers",
                "declare whether one card plus two jokers is a set or stairs",
                "1枚とジョーカー2枚は、組か階段かを宣言してください",
            )
        is_set = kind == "set"
    elif set_ok:
        if declare == "stairs":
            raise _invalid("these cards are not stairs", "これは階段ではありません")
        is_set = True
    elif stairs_ok:
        if declare == "set":
            raise _invalid("these cards are not a set", "これは同じ数字の組ではありません")
        is_set = False
    else:
        family = _read_family(state, seat, cards) if k == 0 and declare is None else None
        if family is not None:
            return family
        raise _invalid(
            "not a single, a set of one rank, or stairs of one suit",
            "シングル・同じ数字の組・同じスートの階段のいずれでもありません",
        )
    if is_set:
        if as_cards and as_cards & ~RANK_MASK[lo]:
            raise _bad_as(
                "a joker in a set stands for the set's rank", "組のジョーカーは組と同じ数字です"
            )
        suits = (nat >> (4 * lo)) & 15
        if suit_choice and k:
            as_cards = _set_joker_suits(state, lo, suits, k, as_cards)
        return Combo(SET, size, lo, suits, k > 0, cards, as_cards, seat)
    ranks = _suit_ranks(nat, suit)
    reach = 1 if rules.joker_beyond_ends else 0
    if as_cards:
        outside = as_cards & BEYOND_ENDS
        if outside and not reach:
            raise _bad_as(
                "a joker stands below the 3 or above the 2 only under joker_beyond_ends",
                "3 の下・2 の上にジョーカーを置けるのは joker_beyond_ends のときだけです",
            )
        own_ends = (1 << (BELOW_3 + suit)) | (1 << (ABOVE_2 + suit))
        if as_cards & ~SUIT_MASK[suit] & ~own_ends:
            raise _bad_as(
                "a joker in stairs stands for a card of the stairs' suit",
                "階段のジョーカーは階段と同じスートです",
            )
        full = ranks | _suit_ranks(as_cards & NUMBERS, suit)
        if outside:
            # Positions -1 (below 3) … 13 (above 2) as bits 0 … 14.
            spots = full << 1
            if outside & _BELOW_3_ANY:
                spots |= 1
            if outside >> ABOVE_2:
                spots |= 1 << 14
            start = (spots & -spots).bit_length() - 2
            whole = spots >> (start + 1) == (1 << size) - 1
        else:
            start = (full & -full).bit_length() - 1
            whole = full >> start == (1 << size) - 1
        if not whole:
            raise _bad_as(
                "the jokers must complete consecutive ranks",
                "ジョーカーで連続した数字にしてください",
            )
        return Combo(STAIRS, size, start, 1 << suit, True, cards, as_cards, seat)
    if k == 0:
        return Combo(STAIRS, size, lo, 1 << suit, False, cards, 0, seat)
    rev = state.reversed
    # Weakest positions the run may start at; with joker_beyond_ends a joker may stand at
    # -1 (below 3) or 13 (above 2).
    candidates = range(max(-reach, hi - size + 1), min(lo, 13 + reach - size) + 1)
    if not candidates:
        raise _invalid("too many cards for stairs", "階段にしては枚数が多すぎます")
    if table is not None and table.kind == STAIRS and table.size == size:
        beating = [a for a in candidates if _run_beats(a, table, rev, rules.stairs_overlap)]
        if state.nlock:
            beating = [a for a in beating if a == (table.rank - 1 if rev else table.rank + 1)]
        if beating:
            candidates = range(beating[0], beating[-1] + 1)
    start = candidates[0] if rev else candidates[-1]
    as_cards = _run_jokers(start, size, ranks, suit)
    return Combo(STAIRS, size, start, 1 << suit, True, cards, as_cards, seat)


def _run_jokers(start: int, size: int, ranks: int, suit: int) -> CardSet:
    """What the jokers stand for in the run of ``size`` from position ``start`` (-1 = below
    3, 13 = above 2) of ``suit`` whose number cards have the rank mask ``ranks``."""
    spots = ((1 << size) - 1) << (start + 1)  # positions -1 … 13 as bits 0 … 14
    targets = _SPREAD[(spots >> 1) & 0x1FFF & ~ranks] << suit
    if spots & 1:
        targets |= 1 << (BELOW_3 + suit)
    if spots >> 14:
        targets |= 1 << (ABOVE_2 + suit)
    return targets


def _set_joker_suits(state: State, rank: int, suits: int, k: int, as_cards: CardSet) -> CardSet:
    """The suits the ``k`` jokers of a set stand for under joker_suit_choice (rule 13b):
    ``as_cards`` checked, or when it is not given the engine's reading: the suits a lock
    requires, else the suits that match the set on the table when the natural cards fit
    in it (so a lock starts, as lock_counts_joker_suits reads a joker without 'as'), else
    the lowest free suits in the order ♠ ♥ ♦ ♣.  A joker finding no free suit (a set of
    five or more) stands for none."""
    free = 15 & ~suits
    want = min(k, free.bit_count())
    if as_cards:
        if as_cards.bit_count() != want:
            raise _bad_as(
                f"'as' gives one suit for each joker that can take one ({want} here)",
                f"as はスートを取れるジョーカー1枚につき1枚です（ここでは {want} 枚）",
            )
        return as_cards
    table = state.table
    if state.lock:
        preferred = state.lock & free
    elif (
        table is not None
        and table.kind == SET
        and table.rank != JOKER_RANK
        and not suits & ~table.suits
    ):
        preferred = table.suits & free
    else:
        preferred = 0
    chosen = 0
    for pool in (preferred, free & ~preferred):
        while pool and chosen.bit_count() < want:
            low = pool & -pool
            chosen |= low
            pool ^= low
    return chosen << (4 * rank)


def _read_family(state: State, seat: int, cards: CardSet) -> Combo | None:
    """イーペーコー or サンレンコー (number cards only), when the ruleset has them."""
    rules = state.setup.rules
    size = cards.bit_count()
    suits = 0
    for s in range(4):
        if cards & SUIT_MASK[s]:
            suits |= 1 << s
    low = cards & -cards
    lo = (low.bit_length() - 1) >> 2
    if rules.double_stairs and size >= 6 and not size & 1 and suits.bit_count() == 2:
        s1 = (suits & -suits).bit_length() - 1
        s2 = suits.bit_length() - 1
        r1 = _suit_ranks(cards, s1)
        if r1 == _suit_ranks(cards, s2) and r1 == _RUN[lo][size >> 1]:
            return Combo(DOUBLE_STAIRS, size, lo, suits, False, cards, 0, seat)
    if rules.triple_run and size == 9 and lo <= 10:
        groups = [(cards >> (4 * (lo + i))) & 15 for i in range(3)]
        if all(g.bit_count() == 3 for g in groups):
            same = groups[0] if groups[0] == groups[1] == groups[2] else 0
            return Combo(TRIPLE_RUN, 9, lo, same, False, cards, 0, seat)
    return None


def _run_beats(start: int, table: Combo, rev: bool, overlap: bool) -> bool:
    """Whether a run of the table's kind starting at ``start`` beats it (overlap or not)."""
    rank = table.rank
    if overlap:
        return start < rank if rev else start > rank
    return start + table.span <= rank if rev else start >= rank + table.span


def _invalid(en: str, ja: str) -> IllegalMove:
    return _illegal("invalid_combination", "JDF §5 combinations", en, ja)


def _beats(new: int, old: int, rev: bool) -> bool:
    if new == JOKER_RANK:
        return old != JOKER_RANK
    if old == JOKER_RANK:
        return False
    return new < old if rev else new > old


def _check_against_table(state: State, combo: Combo) -> None:
    table = state.table
    if table is None:
        return
    rules = state.setup.rules
    if combo.kind != table.kind:
        raise _illegal(
            "wrong_kind",
            "JDF §6 following",
            f"a {table.name} must be answered with a {table.name}",
            "場と同じ種類の役を出してください",
        )
    if combo.size != table.size:
        raise _illegal(
            "wrong_count",
            "JDF §6 following",
            f"play {table.size} cards, as on the table",
            f"場と同じ {table.size} 枚を出してください",
        )
    lock = state.lock
    if table.kind == SET and table.size == 1 and table.rank == JOKER_RANK:
        if combo.size == 1 and combo.cards & state.setup.returns:
            if not _return_allowed(state, combo.cards):
                raise _locked(lock, "JDF §13 suit lock (A7: the lock applies to the ♠3 return)")
            return
        raise _illegal(
            "not_stronger",
            "JDF §12 ♠3 return",
            "only the return card beats a single joker",
            "シングルのジョーカーに勝てるのは返しのカードだけです",
        )
    rev = state.revolution if state.back < 0 else state.back == 1
    if combo.kind == SET:
        beats = _beats(combo.rank, table.rank, rev)
    else:
        beats = _run_beats(combo.rank, table, rev, rules.stairs_overlap)
    if not beats:
        raise _illegal(
            "not_stronger",
            "JDF §6 following" + (" (reversed order)" if rev else ""),
            "the play is not stronger than the table",
            "場のカードより強くありません",
        )
    if lock:
        if combo.kind != SET:
            bad = combo.suits != lock
        elif combo.as_cards:
            bad = combo.suits | ((combo.as_cards >> (4 * combo.rank)) & 15) != lock
        else:
            bad = bool(combo.suits & ~lock)
        if bad:
            raise _locked(lock, "JDF §13 suit lock")
    if state.nlock and combo.rank != JOKER_RANK:
        need = table.rank - 1 if rev else table.rank + 1
        if combo.rank != need:
            name = RANKS[need] if 0 <= need < 13 else "-"
            raise _illegal(
                "number_locked",
                "number lock (数字しばり, local §3.1 rule 15)",
                f"the number is locked: play rank {name}",
                f"数字しばり中です（{name} を出してください）",
            )


def _locked(lock: int, rule: str) -> IllegalMove:
    suits = "".join(suit_names(lock))
    return _illegal(
        "suit_locked",
        rule,
        f"the suits are locked to {suits}",
        f"スートしばり（{suits}）中です",
    )


# --- transitions -----------------------------------------------------------------------


def apply_unchecked(state: State, move: Move, events: list[Event] | None = None) -> State:
    """Apply a move produced by :func:`legal_moves` for ``state`` without checking it.

    Events are appended to ``events`` when a list is given.  The result is
    undefined for any other move.
    """
    if state.phase == PHASE_EXCHANGE:
        return _apply_give(state, move)[0]
    seat = move.seat
    if move.is_pass:
        return _advance_pass(state, seat, events)
    cards = move.cards
    if move.respond or move.declare == INSTANT_WIN:
        if move.declare == INSTANT_WIN:
            return _instant_win(state, seat, cards, events)
        return _advance_play(
            state, seat, Combo(SET, 1, 0, cards, False, cards, 0, seat), events, None, True
        )
    nat = cards & NUMBERS
    as_cards = move.as_cards
    if not nat:
        combo = Combo(SET, cards.bit_count(), JOKER_RANK, 0, True, cards, 0, seat)
    elif as_cards and as_cards & ~RANK_MASK[((nat & -nat).bit_length() - 1) >> 2]:
        # 'as' beyond the weakest natural's rank: stairs (a set's jokers keep its rank).
        low = nat & -nat
        suit = (low.bit_length() - 1) & 3
        allc = nat | as_cards
        start = -1 if as_cards & _BELOW_3_ANY else ((allc & -allc).bit_length() - 1) >> 2
        combo = Combo(STAIRS, cards.bit_count(), start, 1 << suit, True, cards, as_cards, seat)
    else:
        low = nat & -nat
        lo = (low.bit_length() - 1) >> 2
        if lo == (nat.bit_length() - 1) >> 2:
            combo = Combo(
                SET,
                cards.bit_count(),
                lo,
                (nat >> (4 * lo)) & 15,
                nat != cards,
                cards,
                as_cards,
                seat,
            )
        else:
            suit = (low.bit_length() - 1) & 3
            if state.setup.families and nat & ~SUIT_MASK[suit]:
                family = _read_family(state, seat, cards)
                assert family is not None
                combo = family
            else:
                combo = Combo(STAIRS, cards.bit_count(), lo, 1 << suit, False, cards, 0, seat)
    return _advance_play(state, seat, combo, events, move.choice)


def _put(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``values`` with item ``i`` replaced: states hold tuples, so an update is a copy."""
    items = list(values)
    items[i] = value
    return tuple(items)


def _next_active(seats: int, after: int, blocked: int) -> int:
    """First seat clockwise after ``after`` (``after`` itself last) not in the ``blocked``
    mask, or -1."""
    free = ((1 << seats) - 1) & ~blocked
    later = free >> (after + 1)
    if later:
        return after + (later & -later).bit_length()
    return (free & -free).bit_length() - 1


class _Draft:
    """The next state while a move is resolved: every :class:`State` field, mutable, plus
    what the rule steps hand on to each other.  :meth:`freeze` is the one place a state is
    built from another, so a new field is added here and in ``State`` only."""

    __slots__ = (
        "answer",
        "back",
        "bit",
        "choice",
        "clean",
        "combo",
        "counts",
        "cut",
        "discarded",
        "events",
        "extras",
        "foul",
        "fouls",
        "gives",
        "hands",
        "left",
        "lock",
        "lock_run",
        "miyako",
        "miyako_at",
        "must_open",
        "nlock",
        "nrun",
        "out",
        "passed",
        "phase",
        "played",
        "prev",
        "respond",
        "returned",
        "reversed_before",
        "revolution",
        "seat",
        "setup",
        "start",
        "table",
        "turn",
    )

    setup: Setup
    phase: int
    turn: int
    hands: tuple[CardSet, ...]
    counts: tuple[int, ...]
    played: CardSet
    table: Combo | None
    passed: int
    lock: int
    lock_run: int
    revolution: bool
    out: int
    clean: tuple[int, ...]
    fouls: tuple[int, ...]
    miyako: int
    gives: tuple[int, ...]
    must_open: CardSet
    discarded: CardSet
    back: int
    respond: int
    start: bool
    nlock: bool
    nrun: int
    miyako_at: int
    extras: Extras
    events: list[Event] | None
    """Where the steps append events; ``None`` on the fast path (no event is built)."""
    seat: int
    bit: int
    combo: Combo
    """The play being resolved (its suits may still change: lock_counts_joker_suits)."""
    prev: Combo | None
    """The table the play was made on."""
    choice: str | None
    answer: bool
    """The play is an out-of-turn answer to a lone joker."""
    reversed_before: bool
    """The effective order before the play (forbidden finishes, number-lock steps)."""
    left: int
    returned: bool
    """The play returned a lone joker (♠3 / ♥3): the trick is cleared at once."""
    cut: bool
    """An 8切り that clears the trick at once (never a foul finish's)."""
    foul: bool

    def __init__(self, state: State, seat: int, events: list[Event] | None) -> None:
        self.setup = state.setup
        self.phase = state.phase
        self.turn = state.turn
        self.hands = state.hands
        self.counts = state.counts
        self.played = state.played
        self.table = state.table
        self.passed = state.passed
        self.lock = state.lock
        self.lock_run = state.lock_run
        self.revolution = state.revolution
        self.out = state.out
        self.clean = state.clean
        self.fouls = state.fouls
        self.miyako = state.miyako
        self.gives = state.gives
        self.must_open = state.must_open
        self.discarded = state.discarded
        self.back = state.back
        self.respond = state.respond
        self.start = state.start
        self.nlock = state.nlock
        self.nrun = state.nrun
        self.miyako_at = state.miyako_at
        self.extras = state.extras
        self.events = events
        self.seat = seat
        self.bit = 1 << seat

    def freeze(self) -> State:
        # Positional on purpose: keywords cost a third more per state on the hot path.
        return State(
            self.setup,
            self.phase,
            self.turn,
            self.hands,
            self.counts,
            self.played,
            self.table,
            self.passed,
            self.lock,
            self.lock_run,
            self.revolution,
            self.out,
            self.clean,
            self.fouls,
            self.miyako,
            self.gives,
            self.must_open,
            self.discarded,
            self.back,
            self.respond,
            self.start,
            self.nlock,
            self.nrun,
            self.miyako_at,
            self.extras,
        )

    @property
    def reversed(self) -> bool:
        """The effective order now (as :attr:`State.reversed`)."""
        return self.revolution if self.back < 0 else self.back == 1


Step = Callable[[_Draft], None]


class RuleStep(NamedTuple):
    """One step of a move's resolution, and whether a game needs it at all: decided once
    per :class:`Setup`, so the hot path never tests a switch that is off."""

    name: str
    run: Step
    in_use: Callable[[Setup], bool]


def _always(setup: Setup) -> bool:
    return True


# --- the steps of a play, in PLAY_STEPS order ---------------------------------------------


def _played(d: _Draft) -> None:
    """The cards leave the hand and lie on the table; the opening duty, the instant-win
    window and any answer window end with the play."""
    combo = d.combo
    seat = d.seat
    cards = combo.cards
    if d.setup.known & d.bit:
        d.hands = _put(d.hands, seat, d.hands[seat] & ~cards)
    d.left = left = d.counts[seat] - combo.size
    d.counts = _put(d.counts, seat, left)
    d.played |= cards
    d.table = combo
    d.must_open = 0
    d.respond = 0
    d.start = False
    if d.events is not None:
        d.events.append(Played(seat, cards, combo.name, combo.as_cards))


def _exposed_played(d: _Draft) -> None:
    """プンリー: exposed cards that are played are no longer exposed."""
    exposed = d.extras.exposed
    if exposed:
        cards = d.combo.cards
        d.extras = d.extras._replace(exposed=tuple(e & ~cards for e in exposed))


def _revolution(d: _Draft) -> None:
    """革命: a set (or stairs, イーペーコー) of the revolution size flips the order."""
    combo = d.combo
    rules = d.setup.rules
    kind = combo.kind
    if kind == SET:
        need = rules.revolution_set_size
    elif kind == TRIPLE_RUN:
        need = 0
    else:
        need = rules.revolution_stairs_size
    if need and combo.size >= need:
        d.revolution = not d.revolution
        if d.back >= 0 and d.setup.eleven_back == 2:
            d.back ^= 1  # 'toggle': effective order = revolution XOR back
        if d.events is not None:
            d.events.append(Revolution(d.seat, d.revolution))


def _eleven_back(d: _Draft) -> None:
    """イレブンバック: a call on a set of Js ('choice'), or a play covering J ('toggle')."""
    choice = d.choice
    if choice is not None:
        d.back = CHOICES[choice]
        if d.events is not None:
            d.events.append(ElevenBack(d.seat, choice))
    elif d.setup.eleven_back == 2 and _covers_jack(d.combo):
        d.back = 0 if d.reversed else 1
        if d.events is not None:
            d.events.append(ElevenBack(d.seat, "down" if d.back else "up"))


def _passes_reset(d: _Draft) -> None:
    """B4: every pass is reset when the play turns the effective order to reversed."""
    if d.passed and not d.reversed_before and d.reversed:
        d.passed = 0
        if d.events is not None:
            d.events.append(PassesReset())


def _joker_suits(d: _Draft) -> None:
    """lock_counts_joker_suits: the suits a set's jokers stand for count, given by 'as',
    else taken from the play they follow when the natural suits fit in it."""
    combo = d.combo
    if not combo.joker or combo.kind != SET or combo.rank == JOKER_RANK:
        return
    prev = d.prev
    if combo.as_cards:
        suits = combo.suits | ((combo.as_cards >> (4 * combo.rank)) & 15)
    elif prev is not None and prev.kind == SET and not combo.suits & ~prev.suits:
        suits = prev.suits
    else:
        suits = combo.suits
    d.combo = d.table = combo.with_suits(suits)


def _suit_lock(d: _Draft) -> None:
    """スートしばり: suit_lock_after consecutive suit matches lock the trick's suits."""
    prev = d.prev
    if prev is None or d.lock or d.answer:
        return
    combo = d.combo
    if d.setup.joker_suits:
        match = (
            combo.suits == prev.suits
            and combo.rank != JOKER_RANK
            and prev.rank != JOKER_RANK
            and combo.suits != 0
        )
    else:
        match = not combo.joker and not prev.joker and combo.suits == prev.suits
    if not match:
        d.lock_run = 0
        return
    d.lock_run += 1
    if d.lock_run >= d.setup.rules.suit_lock_after:
        d.lock = combo.suits
        if d.events is not None:
            d.events.append(LockStarted(d.seat, d.lock))


def _number_lock(d: _Draft) -> None:
    """数字しばり: number_lock_after joker-free one-step plays lock the next rank."""
    prev = d.prev
    if prev is None or d.nlock or d.answer:
        return
    combo = d.combo
    if combo.joker or prev.joker or combo.rank != prev.rank + (-1 if d.reversed_before else 1):
        d.nrun = 0
        return
    d.nrun += 1
    if d.nrun >= d.setup.rules.number_lock_after:
        d.nlock = True
        if d.events is not None:
            d.events.append(NumberLockStarted(d.seat))


def _joker_return(d: _Draft) -> None:
    """スペ3返し / ハーツ: the return card on a lone joker clears the trick at once."""
    prev = d.prev
    combo = d.combo
    if not d.answer and not (
        prev is not None
        and prev.rank == JOKER_RANK
        and prev.size == 1
        and combo.size == 1
        and combo.cards & d.setup.returns
    ):
        return
    d.returned = True
    if d.events is not None:
        if combo.cards == SPADE_3:
            d.events.append(SpadeThreeReturn(d.seat))
        else:
            d.events.append(HeartThreeReturn(d.seat, d.answer))


def _finish(d: _Draft) -> None:
    """あがり: the last cards played; a foul finish (反則あがり) ranks at the bottom."""
    if d.left:
        return
    setup = d.setup
    combo = d.combo
    cards = combo.cards
    seat = d.seat
    foul = False
    if setup.fouls == 2:
        rules = setup.rules
        foul = (
            combo.joker
            or (
                bool(cards & RANK_MASK[RANK_8])
                and (combo.kind == SET or rules.eight_in_stairs_finish_is_foul)
            )
            or (cards == SPADE_3 and (rules.lone_spade3_finish_is_foul or d.returned))
            or bool(cards & RANK_MASK[0 if d.reversed_before else 12])
        )
    elif setup.fouls == 1:
        foul = combo.joker
    d.out |= d.bit
    d.foul = foul
    if foul:
        d.fouls = (*d.fouls, seat)
        if d.events is not None:
            seats = len(d.counts)
            place = seats if setup.latest_lowest else seats - len(d.fouls) + 1
            d.events.append(FoulFinish(seat, place))
    else:
        d.clean = (*d.clean, seat)
        if d.events is not None:
            d.events.append(Finished(seat, len(d.clean)))


def _miyako_ochi(d: _Draft) -> None:
    """都落ち: the first clean finish by another player puts the reigning 大富豪 out at
    once, hand discarded."""
    clean = d.clean
    daifugo = d.setup.daifugo
    if len(clean) != 1 or clean[0] != d.seat or daifugo == d.seat or d.out >> daifugo & 1:
        return
    d.miyako = daifugo
    d.miyako_at = len(d.fouls)
    d.out |= 1 << daifugo
    hands = d.hands
    lost = hands[daifugo]
    d.discarded |= lost
    d.hands = _put(hands, daifugo, 0)
    d.counts = _put(d.counts, daifugo, 0)
    exposed = d.extras.exposed
    if exposed:
        d.extras = d.extras._replace(exposed=_put(exposed, daifugo, 0))
    if d.events is not None:
        d.events.append(MiyakoOchi(daifugo, lost))


def _eight_cut(d: _Draft) -> None:
    """8切り: 8s (and, by switch, stairs covering 8) clear the trick, unless a foul finish."""
    combo = d.combo
    rules = d.setup.rules
    kind = combo.kind
    if kind == SET:
        cut = combo.rank == RANK_8
    else:
        cut = (
            kind == STAIRS
            and rules.eight_cut_in_stairs
            and combo.rank <= RANK_8 < combo.rank + combo.size
            and (rules.eight_cut_joker_in_stairs or bool(combo.cards & RANK_MASK[RANK_8]))
        )
    if cut and not d.foul:
        d.cut = True
        if d.events is not None:
            d.events.append(EightCut(d.seat))


def _trick_end(d: _Draft) -> None:
    """The turn passes on, or the trick flows: cleared at once, or nobody else can answer."""
    seats = len(d.counts)
    in_game = ((1 << seats) - 1) & ~d.out
    if _POPCOUNT[in_game] <= 1:
        return  # the game is over
    seat = d.seat
    bit = d.bit
    combo = d.combo
    lone_joker = (
        d.setup.respond_rule and combo.kind == SET and combo.rank == JOKER_RANK and combo.size == 1
    )
    cleared_at_once = d.returned or d.cut
    nxt = -1 if cleared_at_once else _next_active(seats, seat, d.out | d.passed | bit)
    if nxt >= 0:
        d.turn = nxt
        if lone_joker:
            d.respond = in_game & ~bit & ~(1 << nxt)
        return
    leader = seat if not d.out & bit else _next_active(seats, seat, d.out)
    _flow(d, leader)
    if lone_joker and not cleared_at_once:
        # The window for an out-of-turn answer outlives a flow by passes: the answer
        # still takes the lead (B2: a passed ♥3 holder may answer).
        d.respond = in_game & ~bit & ~(1 << leader)


def _trick_end_last_follows(d: _Draft) -> None:
    """:func:`_trick_end` under last_player_may_follow (UECda rule 13): the player who
    just played is not skipped, so when every other seat has passed the turn comes back to
    them; the trick flows at once only when it is cleared (8切り, a joker return) or when
    nobody in the game is left to play."""
    seats = len(d.counts)
    in_game = ((1 << seats) - 1) & ~d.out
    if in_game.bit_count() <= 1:
        return  # the game is over
    seat = d.seat
    bit = d.bit
    combo = d.combo
    lone_joker = (
        d.setup.respond_rule and combo.kind == SET and combo.rank == JOKER_RANK and combo.size == 1
    )
    cleared_at_once = d.returned or d.cut
    nxt = -1 if cleared_at_once else _next_active(seats, seat, d.out | d.passed)
    if nxt >= 0:
        d.turn = nxt
        if lone_joker:
            d.respond = in_game & ~bit & ~(1 << nxt)
        return
    leader = seat if not d.out & bit else _next_active(seats, seat, d.out)
    _flow(d, leader)
    if lone_joker and not cleared_at_once:
        d.respond = in_game & ~bit & ~(1 << leader)


def _game_over(d: _Draft) -> None:
    """One seat (or none) left holding cards: the game ends."""
    if _POPCOUNT[((1 << len(d.counts)) - 1) & ~d.out] > 1:
        return
    _end_game(d)


def _end_game(d: _Draft) -> None:
    d.phase = PHASE_OVER
    d.turn = -1
    d.must_open = 0
    d.respond = 0
    d.start = False
    if d.events is not None:
        d.events.append(GameOver(placings(d.freeze())))


def _flow(d: _Draft, leader: int) -> None:
    """流れ: the table is cleared and everything that lasts a trick ends; ``leader`` leads."""
    d.turn = leader
    d.table = None
    d.passed = 0
    d.lock = 0
    d.lock_run = 0
    d.back = -1
    d.nlock = False
    d.nrun = 0
    d.must_open = 0
    if d.events is not None:
        d.events.append(TrickCleared(leader))


def _stalemate_count(d: _Draft) -> None:
    """千日手: a play ends a run of passes."""
    if d.extras.pass_run:
        d.extras = d.extras._replace(pass_run=0)


PLAY_STEPS: Final[tuple[RuleStep, ...]] = (
    RuleStep("played", _played, _always),
    RuleStep("stalemate_count", _stalemate_count, lambda s: s.rules.stalemate_passes > 0),
    RuleStep("exposed_played", _exposed_played, lambda s: s.rules.misplay),
    RuleStep(
        "revolution",
        _revolution,
        lambda s: bool(s.rules.revolution_set_size or s.rules.revolution_stairs_size),
    ),
    RuleStep("eleven_back", _eleven_back, lambda s: s.eleven_back != 0),
    RuleStep("passes_reset", _passes_reset, lambda s: s.reset_passes),
    RuleStep("joker_suits", _joker_suits, lambda s: s.joker_suits),
    RuleStep("suit_lock", _suit_lock, lambda s: s.rules.suit_lock),
    RuleStep("number_lock", _number_lock, lambda s: s.number_lock),
    RuleStep("joker_return", _joker_return, lambda s: s.returns != 0),
    RuleStep("finish", _finish, _always),
    RuleStep("miyako_ochi", _miyako_ochi, lambda s: s.rules.miyako_ochi and s.daifugo >= 0),
    RuleStep("eight_cut", _eight_cut, lambda s: s.rules.eight_cut),
    RuleStep("trick_end", _trick_end, lambda s: not s.rules.last_player_may_follow),
    RuleStep(
        "trick_end_last_follows",
        _trick_end_last_follows,
        lambda s: s.rules.last_player_may_follow,
    ),
    RuleStep("game_over", _game_over, _always),
)
"""How a play is resolved, in this order (the order of its events: README "Events")."""


# --- the steps of a pass ------------------------------------------------------------------


def _passed(d: _Draft) -> None:
    """The passer sleeps until the trick flows (JDF §8); a pass closes the instant-win and
    answer windows."""
    d.passed |= d.bit
    d.respond = 0
    d.start = False
    if d.events is not None:
        d.events.append(Passed(d.seat))


def _pass_turn(d: _Draft) -> None:
    """The next seat that has not passed plays, or the trick flows."""
    seats = len(d.counts)
    seat = d.seat
    out = d.out
    table = d.table
    if table is None:
        # 空場パス (pass_on_lead): when every seat still in the game has passed on the
        # empty table, the passes reset and the seat after the last passer leads.
        nxt = _next_active(seats, seat, out | d.passed)
        if nxt >= 0:
            d.turn = nxt
        else:
            _flow(d, _next_active(seats, seat, out))
        return
    last = table.seat
    nxt = _next_active(seats, seat, out | d.passed | (1 << last))
    if nxt >= 0:
        d.turn = nxt
        return
    _flow(d, last if not out >> last & 1 else _next_active(seats, last, out))


def _pass_turn_last_follows(d: _Draft) -> None:
    """:func:`_pass_turn` under last_player_may_follow (UECda rule 13): the player whose
    cards are on top gets the turn back when all the others have passed, and the trick flows
    only once every seat still in the game has passed, that player included; then they lead
    (if out, the next seat still in the game)."""
    seats = len(d.counts)
    seat = d.seat
    out = d.out
    nxt = _next_active(seats, seat, out | d.passed)
    if nxt >= 0:
        d.turn = nxt
        return
    table = d.table
    if table is None:
        _flow(d, _next_active(seats, seat, out))
        return
    last = table.seat
    _flow(d, last if not out >> last & 1 else _next_active(seats, last, out))


def _stalemate(d: _Draft) -> None:
    """千日手 (stalemate_passes): that many passes in a row end the game; the seats still in
    it take the places left in an order drawn from the game (``deal.stalemate_order``)."""
    run = d.extras.pass_run + 1
    if run < d.setup.rules.stalemate_passes:
        d.extras = d.extras._replace(pass_run=run)
        return
    seats = len(d.counts)
    setup = d.setup
    seed = stalemate_seed(setup.hands, setup.blind, setup.titles, d.played, d.counts)
    order = stalemate_order(seed, [s for s in range(seats) if not d.out >> s & 1])
    d.extras = d.extras._replace(pass_run=run, stalemate=order)
    if d.events is not None:
        d.events.append(Stalemate(order, run))
    _end_game(d)


PASS_STEPS: Final[tuple[RuleStep, ...]] = (
    RuleStep("passed", _passed, _always),
    RuleStep("pass_turn", _pass_turn, lambda s: not s.rules.last_player_may_follow),
    RuleStep(
        "pass_turn_last_follows",
        _pass_turn_last_follows,
        lambda s: s.rules.last_player_may_follow,
    ),
    RuleStep("stalemate", _stalemate, lambda s: s.rules.stalemate_passes > 0),
)
"""How a pass is resolved, in this order."""


def _steps_in_use(steps: tuple[RuleStep, ...], setup: Setup) -> tuple[Step, ...]:
    return tuple(step.run for step in steps if step.in_use(setup))


def _advance_pass(state: State, seat: int, events: list[Event] | None) -> State:
    d = _Draft(state, seat, events)
    for step in state.setup.pass_steps:
        step(d)
    return d.freeze()


def _covers_jack(combo: Combo) -> bool:
    """11-back 'toggle' trigger: the play's represented ranks include J (D7)."""
    return combo.rank <= RANK_J < combo.rank + combo.span


def _advance_play(
    state: State,
    seat: int,
    combo: Combo,
    events: list[Event] | None,
    choice: str | None = None,
    answer: bool = False,
) -> State:
    d = _Draft(state, seat, events)
    d.combo = combo
    d.prev = state.table
    d.choice = choice
    d.answer = answer
    d.reversed_before = state.revolution if state.back < 0 else state.back == 1
    d.returned = answer
    d.cut = False
    d.foul = False
    for step in state.setup.play_steps:
        step(d)
    return d.freeze()


def _instant_win(state: State, seat: int, cards: CardSet, events: list[Event] | None) -> State:
    """イッツー: the seat finishes (clean) and its cards flow; play goes on."""
    d = _Draft(state, seat, events)
    if d.setup.known & d.bit:
        d.hands = _put(d.hands, seat, 0)
    d.counts = _put(d.counts, seat, 0)
    if d.extras.exposed:
        d.extras = d.extras._replace(exposed=tuple(e & ~cards for e in d.extras.exposed))
    d.played |= cards
    d.out |= d.bit
    d.clean = (*d.clean, seat)
    if events is not None:
        events.append(InstantWin(seat, cards))
        events.append(Finished(seat, len(d.clean)))
    if d.setup.rules.miyako_ochi and d.setup.daifugo >= 0:
        _miyako_ochi(d)
    if d.out >> d.turn & 1:
        # The leader declared: the next seat still in the game leads; the opening card
        # left with the declarer's hand, so nothing has to be included.
        d.turn = _next_active(len(d.counts), d.turn, d.out)
        d.must_open = 0
    _game_over(d)
    return d.freeze()


def _apply_give(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    setup = state.setup
    seat = move.seat
    if state.gives[seat] != -1:
        raise _illegal(
            "exchange_invalid",
            "JDF §15 exchange",
            f"seat {seat} has nothing (more) to give",
            f"{seat}番席が渡すカードはありません",
        )
    if move.is_pass or move.as_cards or move.declare is not None:
        raise _illegal(
            "exchange_invalid",
            "JDF §15 exchange",
            "an exchange only gives cards",
            "交換ではカードを渡すだけです",
        )
    lower_first = setup.rules.exchange_order == "lower_first"
    if lower_first and not setup.exchange_strongest[seat] and _lower_pending(state):
        raise _illegal(
            "exchange_invalid",
            "UECda exchange (§4.1 rule 4)",
            "the lower titles give first; the higher titles choose after receiving",
            "先に貧民・大貧民が渡し、そのあと富豪・大富豪が選びます",
        )
    n = setup.exchange_count[seat]
    if move.cards.bit_count() != n:
        raise _illegal(
            "exchange_invalid",
            "JDF §15 exchange",
            f"seat {seat} must give exactly {n} card(s)",
            f"{seat}番席はちょうど {n} 枚渡します",
        )
    cards = _own(state, seat, move.cards)
    if setup.known >> seat & 1 and setup.exchange_strongest[seat]:
        kept = state.hands[seat] & ~cards
        if _min_strength(cards) < _max_strength(kept):
            raise _illegal(
                "exchange_invalid",
                "JDF §15 exchange (脱税)",
                f"seat {seat} must give its {n} strongest card(s) (joker strongest)",
                f"{seat}番席は最も強いカード {n} 枚を渡さなければなりません（脱税）",
            )
    to = setup.exchange_to[seat]
    events: list[Event] = [ExchangeGiven(seat, to, cards)]
    d = _Draft(state, seat, events)
    d.gives = gives = _put(state.gives, seat, cards)
    if lower_first:
        # Each give changes hands at once, so a higher title chooses from what it received.
        hands = list(d.hands)
        hands[seat] &= ~cards
        if setup.known >> to & 1:
            hands[to] |= cards
        counts = list(d.counts)
        counts[seat] -= n
        counts[to] += n
        d.hands = tuple(hands)
        d.counts = tuple(counts)
    if -1 in gives:
        return d.freeze(), tuple(events)
    hands = list(d.hands)
    if not lower_first:
        for giver, give in enumerate(gives):
            if give > 0:
                hands[giver] &= ~give
        for giver, give in enumerate(gives):
            receiver = setup.exchange_to[giver]
            if give > 0 and setup.known >> receiver & 1:
                hands[receiver] |= give
    leader = setup.first_leader
    opening = 0
    if leader < 0:
        # opening_card_every_game: the holder of the opening card after the exchange leads.
        holder, opening = _opening_card(setup.rules, hands, setup.blind)
        leader = 0 if holder is None else holder
        if not setup.rules.opening_card_required or holder is None:
            opening = 0
    events.append(ExchangeDone(leader))
    d.hands = tuple(hands)
    d.phase = PHASE_PLAY
    d.turn = leader
    d.must_open = opening
    d.start = setup.rules.instant_win
    return d.freeze(), tuple(events)


# --- results and views -----------------------------------------------------------------


def final_placings(
    rules: RuleSet,
    seats: int,
    *,
    clean: Sequence[int],
    remaining: Sequence[int] = (),
    fouls: Sequence[int] = (),
    miyako: int | None = None,
    miyako_at: int = 0,
) -> tuple[Placing, ...]:
    """The placings of a finished game from its outcome alone (JDF §19 and ``foul_order``).

    For results recorded without the moves (a referee's quick mode): ``clean`` lists the
    clean finishers in finishing order, ``remaining`` the player(s) left holding cards,
    ``fouls`` the foul finishers (反則あがり) in the order they fouled, ``miyako`` the player
    who fell (都落ち) and ``miyako_at`` how many fouls had happened by then (it orders the
    demotions under ``foul_order`` ``latest_lowest``). Every seat must appear exactly once.

    >>> from games.engine import JDF
    >>> [(p.seat, p.title) for p in final_placings(JDF, 4, clean=[2], remaining=[3],
    ...                                              fouls=[1], miyako=0)]
    [(2, 'daifugo'), (3, 'fugo'), (0, 'hinmin'), (1, 'daihinmin')]
    """
    named = [*clean, *remaining, *fouls, *([] if miyako is None else [miyako])]
    if sorted(named) != list(range(seats)):
        raise EngineError(
            f"every seat 0..{seats - 1} must appear exactly once in an outcome",
            code="outcome_invalid",
        )
    if not 0 <= miyako_at <= len(fouls):
        raise EngineError("miyako_at counts the fouls before 都落ち", code="outcome_invalid")
    latest = rules.foul_order == "latest_lowest"
    return _final_order(seats, clean, remaining, fouls, miyako, miyako_at, latest)


def _final_order(
    seats: int,
    clean: Sequence[int],
    remaining: Sequence[int],
    fouls: Sequence[int],
    miyako: int | None,
    miyako_at: int,
    latest: bool,
    drawn: bool = False,
) -> tuple[Placing, ...]:
    """``drawn``: the ``remaining`` seats were placed by the 千日手 draw, in that order."""
    titles = TITLES.get(seats)
    order: list[int] = [*clean, *remaining]
    if latest:
        # foul_order latest_lowest: demotions (fouls, 都落ち) in time order, latest last.
        demoted = list(fouls)
        if miyako is not None:
            demoted.insert(miyako_at, miyako)
        order.extend(demoted)
    else:
        if miyako is not None:
            order.append(miyako)
        order.extend(reversed(fouls))
    return tuple(
        Placing(
            seat,
            place + 1,
            titles[place] if titles else None,
            seat in fouls,
            seat == miyako,
            drawn and seat in remaining,
        )
        for place, seat in enumerate(order)
    )


def placings(state: State) -> tuple[Placing, ...]:
    """Placings (JDF §19): the full table once the game is over, else those known so far.

    Order when the game ends: clean finishers in finishing order, the player still
    holding cards, the 都落ち player, then foul finishers in reverse order (the
    first foul is last).  Before the end, clean finishers and fouls (whose places
    are already definitive) are listed; a 都落ち player has ``place=None``.
    """
    seats = len(state.counts)
    titles = TITLES.get(seats)
    fouls = state.fouls
    latest = state.setup.latest_lowest
    if state.phase == PHASE_OVER:
        return _final_order(
            seats,
            state.clean,
            state.stalemate or [s for s in range(seats) if not state.out >> s & 1],
            fouls,
            state.miyako if state.miyako >= 0 else None,
            state.miyako_at,
            latest,
            bool(state.stalemate),
        )
    out: list[Placing] = []
    for i, seat in enumerate(state.clean):
        out.append(Placing(seat, i + 1, titles[i] if titles else None))
    if state.miyako >= 0:
        out.append(Placing(state.miyako, None, None, False, True))
    for i, seat in enumerate(fouls):
        if latest:
            # Not definitive: a later demotion moves this player up.
            out.append(Placing(seat, None, None, True))
            continue
        place = seats - i
        out.append(Placing(seat, place, titles[place - 1] if titles else None, True))
    return tuple(out)


def observe(state: State, viewer: int | None = None) -> dict[str, object]:
    """The view of ``state`` for ``viewer`` (a seat) or the public (``None``).

    Hands are hidden (only counts) unless the viewer holds them or the game is
    over; then blind cards and a 都落ち player's discarded hand are shown too.
    This is what live feeds serialise — never the state itself.
    """
    seats = len(state.counts)
    if viewer is not None and not _is_int_in(viewer, 0, seats):
        raise EngineError(f"no seat {viewer!r}", code="invalid_viewer")
    setup = state.setup
    over = state.phase == PHASE_OVER
    hands: list[list[str] | None] = []
    for seat in range(seats):
        if setup.known >> seat & 1 and (over or seat == viewer):
            hands.append(card_names(state.hands[seat]))
        else:
            hands.append(None)
    table = state.table
    view: dict[str, object] = {
        "rules": setup.rules.key,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn if state.phase == PHASE_PLAY else None,
        "viewer": viewer,
        "revolution": state.revolution,
        "lock": suit_names(state.lock),
        "table": None
        if table is None
        else {
            "seat": table.seat,
            "cards": card_names(table.cards),
            "combination": table.name,
            "as": card_names(table.as_cards),
        },
        "passed": [s for s in range(seats) if state.passed >> s & 1],
        "eleven_back": None if state.back < 0 else ("up", "down")[state.back],
        "number_lock": state.nlock,
        "respond": [s for s in range(seats) if state.respond >> s & 1],
        "out": [s for s in range(seats) if state.out >> s & 1],
        "counts": list(state.counts),
        "exposed": {str(s): card_names(e) for s, e in enumerate(state.exposed) if e},
        "hands": hands,
        "played": card_names(state.played),
        "placings": [p.to_dict() for p in placings(state)],
    }
    if state.phase == PHASE_EXCHANGE:
        view["exchange_pending"] = [s for s, g in enumerate(state.gives) if g == -1]
        if viewer is not None and state.gives[viewer] > 0:
            view["exchange_given"] = card_names(state.gives[viewer])
    if over:
        view["blind"] = None if setup.blind is None else card_names(setup.blind)
        view["discarded"] = card_names(state.discarded)
        view["unaccounted"] = card_names(_pool(state))
    return view
