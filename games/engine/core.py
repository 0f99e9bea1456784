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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, NamedTuple

from .cards import (
    JOKER_RANK,
    JOKERS,
    NUMBERS,
    RANK_8,
    RANK_MASK,
    SPADE_3,
    SUIT_MASK,
    CardSet,
    card_names,
    joker_count,
    lowest_jokers,
    parse_cards,
)
from .errors import EngineError, IllegalMove, RecordError
from .events import (
    EightCut,
    Event,
    ExchangeDone,
    ExchangeGiven,
    Finished,
    FoulFinish,
    GameOver,
    LockStarted,
    MiyakoOchi,
    Passed,
    Placing,
    Played,
    Revolution,
    SpadeThreeReturn,
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

_COMPRESS: list[int] = [0] * 0x1112
for _m in range(16):
    _COMPRESS[sum(1 << (4 * i) for i in range(4) if _m >> i & 1)] = _m
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


@dataclass(frozen=True, slots=True)
class Move:
    """One action: a play, a pass, or a give in the card exchange.

    ``as_cards`` is what the jokers stand for (record key ``as``), ``declare`` is
    ``"set"`` or ``"stairs"`` for an ambiguous one-card-plus-two-jokers lead, and
    ``choice`` is reserved for optional rules of other presets (JDF has none).
    """

    seat: int
    cards: CardSet = 0
    is_pass: bool = False
    as_cards: CardSet = 0
    declare: str | None = None
    choice: str | None = None
    exchange: bool = False

    @classmethod
    def play(
        cls,
        seat: int,
        cards: CardSet | str | Sequence[str],
        *,
        as_: CardSet | str | Sequence[str] = 0,
        declare: str | None = None,
    ) -> Move:
        """A play; ``cards`` and ``as_`` accept masks or card text."""
        return cls(seat, _mask(cards), as_cards=_mask(as_), declare=declare)

    @classmethod
    def pass_turn(cls, seat: int) -> Move:
        return cls(seat, is_pass=True)

    @classmethod
    def give(cls, seat: int, cards: CardSet | str | Sequence[str]) -> Move:
        """A give in the card exchange (カード交換)."""
        return cls(seat, _mask(cards), exchange=True)

    def __str__(self) -> str:
        if self.is_pass:
            return f"P{self.seat}: pass"
        text = " ".join(card_names(self.cards))
        if self.as_cards:
            text += " as " + " ".join(card_names(self.as_cards))
        if self.declare:
            text += f" ({self.declare})"
        return f"P{self.seat}: {'give ' if self.exchange else ''}{text}"


def _mask(cards: CardSet | str | Sequence[str]) -> CardSet:
    if isinstance(cards, int):
        return cards
    return parse_cards(cards)


class Combo(NamedTuple):
    """A combination on the table (or being played).

    ``rank`` is the set's rank (``13`` for jokers only) or the stairs' weakest rank
    in normal order; ``suits`` is the 4-bit mask of the natural suits (stairs: its
    suit); ``as_cards`` what the jokers stand for, when known.
    """

    kind: int
    size: int
    rank: int
    suits: int
    joker: bool
    cards: CardSet
    as_cards: CardSet
    seat: int

    @property
    def name(self) -> str:
        if self.kind == STAIRS:
            return "stairs"
        return "single" if self.size == 1 else "set"


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


@dataclass(frozen=True, slots=True)
class State:
    """An immutable game state.  Build new ones with :func:`apply`, never by hand."""

    setup: Setup
    phase: int
    turn: int
    hands: tuple[CardSet, ...]
    """Held cards per seat (0 for open-table seats, whose cards are unknown)."""
    counts: tuple[int, ...]
    """Number of cards held per seat."""
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
            free = JOKERS & ~seen
            if free.bit_count() < k:
                raise RecordError("a deck has only two jokers", key=f"hands[{i}]")
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
            if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 54:
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
    if total > 54:
        raise RecordError(f"{total} cards dealt from a 54-card deck", key="counts")

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

    if leader is not None and (
        isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < seats
    ):
        raise RecordError(f"no seat {leader!r}", key="leader")

    opening = 0
    if titles_t is not None:
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
    )
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

_MOVES: dict[tuple[int, int, int, str | None], Move] = {}
_MOVE_CACHE_LIMIT: Final = 1 << 20


def _mv(seat: int, cards: CardSet, as_cards: CardSet = 0, declare: str | None = None) -> Move:
    # Interned: move generation yields the same few thousand plays per seat over and
    # over, and a frozen dataclass costs ~0.5 µs to build versus ~0.08 µs to look up.
    key = (seat, cards, as_cards, declare)
    move = _MOVES.get(key)
    if move is None:
        if len(_MOVES) >= _MOVE_CACHE_LIMIT:
            _MOVES.clear()
        move = _MOVES[key] = Move(seat, cards, False, as_cards, declare)
    return move


_PASSES: Final = tuple(Move(seat, is_pass=True) for seat in range(8))


def legal_moves(state: State) -> Iterator[Move]:
    """Every legal move, lazily.  Moves are fully specified: stairs with jokers carry
    ``as_cards`` (one move per reading), a one-card-plus-two-jokers lead carries
    ``declare``.  The two jokers are equivalent, so a move uses the lowest joker
    bits the player holds.  In the exchange phase every pending seat's gives are
    listed (the exchange is simultaneous)."""
    phase = state.phase
    if phase == PHASE_PLAY:
        seat = state.turn
        if state.table is not None:
            yield _PASSES[seat]
        if state.setup.known >> seat & 1:
            hand = state.hands[seat]
            yield from _plays(state, seat, hand, 99)
        else:
            yield from _plays(state, seat, _pool(state), state.counts[seat])
    elif phase == PHASE_EXCHANGE:
        yield from _exchange_moves(state)


def _plays(state: State, seat: int, hand: CardSet, cap: int) -> Iterator[Move]:
    rules = state.setup.rules
    jokers = hand & JOKERS
    nj = jokers.bit_count()
    j1 = jokers & -jokers
    jfill = (0, j1, jokers if nj == 2 else 0)
    table = state.table
    mv = _mv
    if table is None:
        must = state.must_open
        for r in range(13):
            m = (hand >> (4 * r)) & 15
            if not m:
                continue
            base = 4 * r
            for sub in _ALL_SUBSETS[m]:
                cards = sub << base
                size = sub.bit_count()
                if size > cap:
                    continue
                top = min(nj, cap - size)
                if must and not cards & must:
                    continue
                yield mv(seat, cards)
                if top >= 1:
                    yield mv(seat, cards | j1)
                    if top >= 2:
                        if size == 1:
                            yield mv(seat, cards | jokers, 0, "set")
                        else:
                            yield mv(seat, cards | jokers)
        if nj and not must:
            yield mv(seat, j1)
            if nj == 2 and rules.joker_pair_allowed and cap >= 2:
                yield mv(seat, jokers)
        for suit in range(4):
            ranks = _suit_ranks(hand, suit)
            if ranks.bit_count() + nj < 3:
                continue
            for a in range(11):
                for length in range(3, min(13 - a, cap) + 1):
                    run = _RUN[a][length]
                    missing = run & ~ranks
                    nm = missing.bit_count()
                    if nm > nj:
                        break
                    yield from _stairs_moves(seat, suit, run, missing, nj - nm, jfill, True, must)
        return

    rev = state.revolution
    lock = state.lock
    n = table.size
    if table.kind == SET:
        if table.rank == JOKER_RANK:
            if (
                n == 1
                and hand & SPADE_3
                and rules.spade_three_return
                and (not lock or lock & 1 or rules.spade3_ignores_lock)
            ):
                yield mv(seat, SPADE_3)
            return
        if n > cap:
            return
        ranks_iter = range(table.rank - 1, -1, -1) if rev else range(table.rank + 1, 13)
        for r in ranks_iter:
            m = (hand >> (4 * r)) & 15
            if lock:
                m &= lock
            if not m:
                continue
            base = 4 * r
            have = m.bit_count()
            for k in range(max(0, n - have), min(nj, n - 1) + 1):
                fill = jfill[k]
                for sub in _SUBSETS[m][n - k]:
                    yield mv(seat, (sub << base) | fill)
        if nj:
            if n == 1:
                yield mv(seat, j1)
            elif n == 2 and nj == 2 and rules.joker_pair_allowed:
                yield mv(seat, jokers)
        return

    if n > cap:
        return
    starts = range(table.rank - 1, -1, -1) if rev else range(table.rank + 1, 14 - n)
    for suit in range(4):
        if lock and not lock >> suit & 1:
            continue
        ranks = _suit_ranks(hand, suit)
        if ranks.bit_count() + nj < n:
            continue
        for a in starts:
            run = _RUN[a][n]
            missing = run & ~ranks
            nm = missing.bit_count()
            if nm > nj:
                continue
            yield from _stairs_moves(seat, suit, run, missing, nj - nm, jfill, False, 0)


def _stairs_moves(
    seat: int,
    suit: int,
    run: int,
    missing: int,
    spare: int,
    jfill: tuple[CardSet, ...],
    leading: bool,
    must: CardSet,
) -> Iterator[Move]:
    """Stairs on ``run`` (a rank mask): jokers on every missing rank, and ``spare``
    jokers more standing in for ranks the player holds (a distinct move)."""
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
        k = jpos.bit_count()
        declare = "stairs" if leading and k == 2 and nat.bit_count() == 1 else None
        yield _mv(seat, nat | jfill[k], spread[jpos] << suit if k else 0, declare)


def _exchange_moves(state: State) -> Iterator[Move]:
    setup = state.setup
    for seat, given in enumerate(state.gives):
        if given != -1:
            continue
        n = setup.exchange_count[seat]
        if setup.known >> seat & 1:
            hand = state.hands[seat]
            strongest = setup.exchange_strongest[seat]
        else:
            hand = _pool(state) & ~_given_so_far(state)
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
            yield Move(seat, give, exchange=True)


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
    return ((1 << 54) - 1) & ~accounted


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
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise _illegal(
            "not_your_turn", "seats", f"there is no seat {seat!r}", f"席 {seat!r} はありません"
        )
    if state.phase == PHASE_OVER:
        raise _illegal(
            "game_over", "JDF §21 game end", "the game is over", "ゲームは終了しています"
        )
    for name, value in (("cards", move.cards), ("as", move.as_cards)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 54:
            raise _illegal(
                "unknown_card", "cards", f"{name}: not a card set", f"{name}: カードではありません"
            )
    if move.choice is not None:
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
        if state.table is None:
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
    events = []
    return _advance_play(state, seat, combo, events), tuple(events)


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
        if state.phase == PHASE_EXCHANGE:
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
    rules = state.setup.rules
    nat = cards & NUMBERS
    k = joker_count(cards)
    size = cards.bit_count()
    table = state.table
    if declare is not None and declare not in ("set", "stairs"):
        raise _illegal(
            "choice_invalid",
            "JDF §24 declaration",
            f"declare must be 'set' or 'stairs', not {declare!r}",
            "宣言は set か stairs です",
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
        if as_cards.bit_count() != k:
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
    if set_ok and stairs_ok:
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
        raise _invalid(
            "not a single, a set of one rank, or stairs of one suit",
            "シングル・同じ数字の組・同じスートの階段のいずれでもありません",
        )
    if is_set:
        if as_cards and as_cards & ~RANK_MASK[lo]:
            raise _bad_as(
                "a joker in a set stands for the set's rank", "組のジョーカーは組と同じ数字です"
            )
        return Combo(SET, size, lo, (nat >> (4 * lo)) & 15, k > 0, cards, as_cards, seat)
    ranks = _suit_ranks(nat, suit)
    if as_cards:
        if as_cards & ~SUIT_MASK[suit]:
            raise _bad_as(
                "a joker in stairs stands for a card of the stairs' suit",
                "階段のジョーカーは階段と同じスートです",
            )
        full = ranks | _suit_ranks(as_cards, suit)
        start = (full & -full).bit_length() - 1
        if full >> start != (1 << size) - 1:
            raise _bad_as(
                "the jokers must complete consecutive ranks",
                "ジョーカーで連続した数字にしてください",
            )
        return Combo(STAIRS, size, start, 1 << suit, True, cards, as_cards, seat)
    if k == 0:
        return Combo(STAIRS, size, lo, 1 << suit, False, cards, 0, seat)
    rev = state.revolution
    candidates = range(max(0, hi - size + 1), min(lo, 13 - size) + 1)
    if table is not None and table.kind == STAIRS and table.size == size:
        beating = [a for a in candidates if (a < table.rank if rev else a > table.rank)]
        if beating:
            candidates = range(beating[0], beating[-1] + 1)
    start = candidates[0] if rev else candidates[-1]
    jpos = _RUN[start][size] & ~ranks
    return Combo(STAIRS, size, start, 1 << suit, True, cards, _SPREAD[jpos] << suit, seat)


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
        if combo.cards == SPADE_3 and rules.spade_three_return:
            if lock and not lock & 1 and not rules.spade3_ignores_lock:
                raise _locked(lock, "JDF §13 suit lock (A7: the lock applies to the ♠3 return)")
            return
        raise _illegal(
            "not_stronger",
            "JDF §12 ♠3 return",
            "only the ♠3 beats a single joker",
            "シングルのジョーカーに勝てるのはスペードの3だけです",
        )
    if not _beats(combo.rank, table.rank, state.revolution):
        raise _illegal(
            "not_stronger",
            "JDF §6 following" + (" (revolution)" if state.revolution else ""),
            "the play is not stronger than the table",
            "場のカードより強くありません",
        )
    if lock:
        if combo.kind == STAIRS:
            bad = combo.suits != lock
        elif combo.as_cards:
            bad = combo.suits | ((combo.as_cards >> (4 * combo.rank)) & 15) != lock
        else:
            bad = bool(combo.suits & ~lock)
        if bad:
            raise _locked(lock, "JDF §13 suit lock")


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
    nat = cards & NUMBERS
    as_cards = move.as_cards
    if not nat:
        combo = Combo(SET, cards.bit_count(), JOKER_RANK, 0, True, cards, 0, seat)
    elif as_cards:
        # legal_moves gives 'as' only for stairs.
        low = nat & -nat
        suit = (low.bit_length() - 1) & 3
        allc = nat | as_cards
        start = ((allc & -allc).bit_length() - 1) >> 2
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
                0,
                seat,
            )
        else:
            combo = Combo(
                STAIRS,
                cards.bit_count(),
                lo,
                1 << ((low.bit_length() - 1) & 3),
                False,
                cards,
                0,
                seat,
            )
    return _advance_play(state, seat, combo, events)


def _next_active(seats: int, after: int, blocked: int) -> int:
    """First seat clockwise after ``after`` not in the ``blocked`` mask, or -1."""
    for i in range(1, seats + 1):
        s = (after + i) % seats
        if not blocked >> s & 1:
            return s
    return -1


def _advance_pass(state: State, seat: int, events: list[Event] | None) -> State:
    seats = len(state.counts)
    passed = state.passed | (1 << seat)
    table = state.table
    assert table is not None
    last = table.seat
    if events is not None:
        events.append(Passed(seat))
    nxt = _next_active(seats, seat, state.out | passed | (1 << last))
    if nxt >= 0:
        return State(
            state.setup,
            PHASE_PLAY,
            nxt,
            state.hands,
            state.counts,
            state.played,
            table,
            passed,
            state.lock,
            state.lock_run,
            state.revolution,
            state.out,
            state.clean,
            state.fouls,
            state.miyako,
            state.gives,
            state.must_open,
            state.discarded,
        )
    leader = last if not state.out >> last & 1 else _next_active(seats, last, state.out)
    if events is not None:
        events.append(TrickCleared(leader))
    return State(
        state.setup,
        PHASE_PLAY,
        leader,
        state.hands,
        state.counts,
        state.played,
        None,
        0,
        0,
        0,
        state.revolution,
        state.out,
        state.clean,
        state.fouls,
        state.miyako,
        state.gives,
        0,
        state.discarded,
    )


def _advance_play(state: State, seat: int, combo: Combo, events: list[Event] | None) -> State:
    setup = state.setup
    rules = setup.rules
    seats = len(state.counts)
    cards = combo.cards
    bit = 1 << seat
    hands = state.hands
    if setup.known & bit:
        hands = (*hands[:seat], hands[seat] & ~cards, *hands[seat + 1 :])
    left = state.counts[seat] - combo.size
    counts = (*state.counts[:seat], left, *state.counts[seat + 1 :])
    if events is not None:
        events.append(Played(seat, cards, combo.name, combo.as_cards))
    kind = combo.kind
    rev_before = state.revolution
    rev = rev_before
    size_needed = rules.revolution_set_size
    if kind == SET and size_needed and combo.size >= size_needed:
        rev = not rev
        if events is not None:
            events.append(Revolution(seat, rev))
    table = state.table
    lock = state.lock
    run = state.lock_run
    if table is not None and not lock and rules.suit_lock:
        if not combo.joker and not table.joker and combo.suits == table.suits:
            run += 1
            if run >= rules.suit_lock_after:
                lock = combo.suits
                if events is not None:
                    events.append(LockStarted(seat, lock))
        else:
            run = 0
    spade_return = (
        table is not None and table.rank == JOKER_RANK and table.size == 1 and cards == SPADE_3
    )
    cut = rules.eight_cut and (
        (kind == SET and combo.rank == RANK_8)
        or (
            kind == STAIRS
            and rules.eight_cut_in_stairs
            and combo.rank <= RANK_8 < combo.rank + combo.size
        )
    )
    out = state.out
    clean = state.clean
    fouls = state.fouls
    miyako = state.miyako
    discarded = state.discarded
    if spade_return and events is not None:
        events.append(SpadeThreeReturn(seat))
    foul = False
    if left == 0:
        foul = (
            combo.joker
            or (kind == SET and bool(cards & RANK_MASK[RANK_8]))
            or (cards == SPADE_3 and (rules.lone_spade3_finish_is_foul or spade_return))
            or bool(cards & RANK_MASK[0 if rev_before else 12])
        )
        out |= bit
        if foul:
            fouls = (*fouls, seat)
            if events is not None:
                events.append(FoulFinish(seat, seats - len(fouls) + 1))
        else:
            clean = (*clean, seat)
            if events is not None:
                events.append(Finished(seat, len(clean)))
            d = setup.daifugo
            if rules.miyako_ochi and d >= 0 and d != seat and len(clean) == 1 and not out >> d & 1:
                # 都落ち: the reigning 大富豪 is out at once and the hand is discarded.
                miyako = d
                out |= 1 << d
                lost = hands[d]
                discarded |= lost
                hands = (*hands[:d], 0, *hands[d + 1 :])
                counts = (*counts[:d], 0, *counts[d + 1 :])
                if events is not None:
                    events.append(MiyakoOchi(d, lost))
    if cut and not foul and events is not None:
        events.append(EightCut(seat))

    all_seats = (1 << seats) - 1
    if (all_seats & ~out).bit_count() <= 1:
        over = State(
            setup,
            PHASE_OVER,
            -1,
            hands,
            counts,
            state.played | cards,
            combo,
            state.passed,
            lock,
            run,
            rev,
            out,
            clean,
            fouls,
            miyako,
            state.gives,
            0,
            discarded,
        )
        if events is not None:
            events.append(GameOver(placings(over)))
        return over
    if spade_return or (cut and not foul):
        leader = seat if not out & bit else _next_active(seats, seat, out)
        if events is not None:
            events.append(TrickCleared(leader))
        return State(
            setup,
            PHASE_PLAY,
            leader,
            hands,
            counts,
            state.played | cards,
            None,
            0,
            0,
            0,
            rev,
            out,
            clean,
            fouls,
            miyako,
            state.gives,
            0,
            discarded,
        )
    passed = state.passed
    nxt = _next_active(seats, seat, out | passed | bit)
    if nxt < 0:
        leader = seat if not out & bit else _next_active(seats, seat, out)
        if events is not None:
            events.append(TrickCleared(leader))
        return State(
            setup,
            PHASE_PLAY,
            leader,
            hands,
            counts,
            state.played | cards,
            None,
            0,
            0,
            0,
            rev,
            out,
            clean,
            fouls,
            miyako,
            state.gives,
            0,
            discarded,
        )
    return State(
        setup,
        PHASE_PLAY,
        nxt,
        hands,
        counts,
        state.played | cards,
        combo,
        passed,
        lock,
        run,
        rev,
        out,
        clean,
        fouls,
        miyako,
        state.gives,
        0,
        discarded,
    )


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
    gives = (*state.gives[:seat], cards, *state.gives[seat + 1 :])
    to = setup.exchange_to[seat]
    events: list[Event] = [ExchangeGiven(seat, to, cards)]
    if -1 in gives:
        new = State(
            setup,
            PHASE_EXCHANGE,
            -1,
            state.hands,
            state.counts,
            state.played,
            None,
            0,
            0,
            0,
            False,
            0,
            (),
            (),
            -1,
            gives,
            0,
            0,
        )
        return new, tuple(events)
    hands = list(state.hands)
    for giver, give in enumerate(gives):
        if give > 0:
            hands[giver] &= ~give
    for giver, give in enumerate(gives):
        receiver = setup.exchange_to[giver]
        if give > 0 and setup.known >> receiver & 1:
            hands[receiver] |= give
    leader = setup.first_leader
    events.append(ExchangeDone(leader))
    new = State(
        setup,
        PHASE_PLAY,
        leader,
        tuple(hands),
        state.counts,
        state.played,
        None,
        0,
        0,
        0,
        False,
        0,
        (),
        (),
        -1,
        gives,
        0,
        0,
    )
    return new, tuple(events)


# --- results and views -----------------------------------------------------------------


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
    if state.phase == PHASE_OVER:
        order: list[int] = list(state.clean)
        rest = [s for s in range(seats) if not state.out >> s & 1]
        order.extend(rest)
        if state.miyako >= 0:
            order.append(state.miyako)
        order.extend(reversed(fouls))
        return tuple(
            Placing(
                seat,
                place + 1,
                titles[place] if titles else None,
                seat in fouls,
                seat == state.miyako,
            )
            for place, seat in enumerate(order)
        )
    out: list[Placing] = []
    for i, seat in enumerate(state.clean):
        out.append(Placing(seat, i + 1, titles[i] if titles else None))
    if state.miyako >= 0:
        out.append(Placing(state.miyako, None, None, False, True))
    for i, seat in enumerate(fouls):
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
    if viewer is not None and (
        isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < seats
    ):
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
        "out": [s for s in range(seats) if state.out >> s & 1],
        "counts": list(state.counts),
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
