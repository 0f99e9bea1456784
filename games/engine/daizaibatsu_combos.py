"""大財閥 cards and combinations: the 108-card multiset, joker readings, strength.

Cards are :class:`~games.engine.multideck.Cards` with the number cards of two packs. The four
jokers are equivalent (each written ``JK``), so a multiset holds only *how many* it has, always
in one canonical form: the first two on bit 52 (``one``, then ``two``), the next two on bit 53.
Equal hands are therefore equal values. Use :func:`add` / :func:`sub` (never ``+``/``-`` of
``Cards``) so the jokers stay canonical::

    >>> names(parse("5H JK 5H JK JK"))
    ['5H', '5H', 'JK', 'JK', 'JK']
    >>> jokers(sub(parse("JK JK JK 3S"), parse("JK")))
    2

A play is read as the number cards it *represents* (jokers stand for the cards named in
``as``): a set (one rank, 1–8 cards, a single is a set of one), stairs (3+ consecutive ranks of
one suit, no wrap) or jokers alone (1–3, the joker itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement
from typing import Final, NamedTuple

from .cards import RANK_MASK, SUITS, Card, format_card, parse_card
from .errors import InvalidNotation
from .multideck import EMPTY, Cards

JK: Final[Card] = 52
"""Every joker, whatever bit holds it."""
_JOKER_BITS: Final = (
    (0, 0),
    (1 << 52, 0),
    (1 << 52, 1 << 52),
    (3 << 52, 1 << 52),
    (3 << 52, 3 << 52),
)
_NUMBERS: Final = (1 << 52) - 1
DECK_SIZE: Final = 108
THREE: Final = 0
FOUR: Final = 1
FIVE: Final = 2
SIX: Final = 3
SEVEN: Final = 4
EIGHT: Final = 5
NINE: Final = 6
TEN: Final = 7
JACK: Final = 8
QUEEN: Final = 9
KING: Final = 10
ACE: Final = 11
TWO: Final = 12
SPADE_THREE: Final[Card] = 0  # ♠3: rank 3, suit S


def jokers(cards: Cards) -> int:
    one, two = cards.one, cards.two
    return (one >> 52 & 1) + (one >> 53 & 1) + (two >> 52 & 1) + (two >> 53 & 1)


def numbers(cards: Cards) -> Cards:
    return Cards(cards.one & _NUMBERS, cards.two & _NUMBERS)


def make(nums: Cards, joker_count: int) -> Cards:
    """Number cards plus ``joker_count`` jokers, canonically (``ValueError`` above 4)."""
    if not 0 <= joker_count <= 4:
        raise ValueError("more than four jokers")
    one, two = _JOKER_BITS[joker_count]
    return Cards(nums.one | one, nums.two | two)


def add(a: Cards, b: Cards) -> Cards:
    """Both multisets (``ValueError`` beyond two copies of a card or four jokers)."""
    a1, a2, b1, b2 = a.one & _NUMBERS, a.two & _NUMBERS, b.one & _NUMBERS, b.two & _NUMBERS
    if a2 & b1 or b2 & a1:
        raise ValueError("more than two copies of a card")
    k = jokers(a) + jokers(b)
    if k > 4:
        raise ValueError("more than four jokers")
    one, two = _JOKER_BITS[k]
    return Cards(a1 | b1 | one, a2 | b2 | (a1 & b1) | two)


def sub(a: Cards, b: Cards) -> Cards:
    """``a`` without ``b`` (``ValueError`` when ``b`` is not contained)."""
    a1, a2, b1, b2 = a.one & _NUMBERS, a.two & _NUMBERS, b.one & _NUMBERS, b.two & _NUMBERS
    k = jokers(a) - jokers(b)
    if b1 & ~a1 or b2 & ~a2 or k < 0:
        raise ValueError("removing cards that are not there")
    one, two = _JOKER_BITS[k]
    return Cards((a1 & ~b1) | (a2 & ~b2) | one, (a2 & ~b1) | two)


def common(a: Cards, b: Cards) -> Cards:
    """The cards both hold (as many copies as the poorer of the two)."""
    one, two = _JOKER_BITS[min(jokers(a), jokers(b))]
    return Cards(a.one & b.one & _NUMBERS | one, a.two & b.two & _NUMBERS | two)


def holds(a: Cards, b: Cards) -> bool:
    b1, b2 = b.one & _NUMBERS, b.two & _NUMBERS
    return not (b1 & ~a.one or b2 & ~a.two) and jokers(b) <= jokers(a)


def from_list(cards: Iterable[Card]) -> Cards:
    """The multiset of card numbers (52 and 53 both mean a joker)."""
    nums = EMPTY
    k = 0
    for card in cards:
        if card >= 52:
            k += 1
        else:
            nums = nums + Cards(1 << card)
    return make(nums, k)


def to_list(cards: Cards) -> list[Card]:
    """Card numbers in card order, jokers as 52."""
    out = [c for c in cards if c < 52]
    out.extend([JK] * jokers(cards))
    return out


def card_name(card: Card) -> str:
    return "JK" if card >= 52 else format_card(card)


def names(cards: Cards) -> list[str]:
    return [card_name(c) for c in to_list(cards)]


def parse_name(text: object) -> Card:
    card = parse_card(text)
    return JK if card >= 52 else card


def parse(text: str | Sequence[object]) -> Cards:
    """A multiset from names (``"5H 5H JK"`` or a list); too many copies is ``InvalidNotation``."""
    items: list[object] = list(text.split() if isinstance(text, str) else text)
    try:
        return from_list(parse_name(name) for name in items)
    except ValueError as error:
        if isinstance(error, InvalidNotation):
            raise
        raise InvalidNotation(f"{error} in {items!r}") from None


DECK: Final = make(Cards(_NUMBERS, _NUMBERS), 4)
"""Two packs and four jokers: 108 cards."""


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def strength(rank: int, reversed_order: bool) -> int:
    """A rank's place in the effective order (0 weakest); jokers are not ranked here."""
    return 12 - rank if reversed_order else rank


# --- combinations -------------------------------------------------------------------------

SET: Final = "set"
STAIRS: Final = "stairs"
JOKERS: Final = "jokers"


class Combo(NamedTuple):
    """A play as read: ``kind``, ``rank`` (the set's rank, the stairs' lowest rank, -1 for
    jokers), ``size``, ``suits`` (a set's suits as 2 bits of count per suit; stairs: its suit
    counted once; -1 for jokers), ``reading`` (the represented number cards) and ``natural``
    (how many jokers the play holds)."""

    kind: str
    rank: int
    size: int
    suits: int
    reading: Cards
    joker_count: int

    @property
    def revolution(self) -> bool:
        """A 4+ set (rule 20) or 4+ stairs (階段革命)."""
        return self.kind != JOKERS and self.size >= 4

    @property
    def sandstorm(self) -> bool:
        """砂嵐: any three 3s (jokers may stand in)."""
        return self.kind == SET and self.rank == THREE and self.size == 3

    @property
    def three_nines(self) -> bool:
        return self.kind == SET and self.rank == NINE and self.size == 3

    @property
    def spade_threes(self) -> bool:
        """♠3 only, none of them a joker (the cut of rule 3)."""
        return (
            self.kind == SET
            and self.joker_count == 0
            and self.reading.one == 1 << SPADE_THREE
            and self.rank == THREE
        )

    @property
    def top(self) -> int:
        """The stairs' highest rank (a set's rank)."""
        return self.rank + self.size - 1 if self.kind == STAIRS else self.rank

    def rank_counts(self) -> list[tuple[int, int]]:
        """(rank, n) for each rank the play represents, rank order."""
        if self.kind == JOKERS:
            return []
        if self.kind == SET:
            return [(self.rank, self.size)]
        return [(r, 1) for r in range(self.rank, self.rank + self.size)]

    def weakest(self, reversed_order: bool) -> int:
        """The strength of its weakest rank in the order (how stairs compare)."""
        if self.kind == STAIRS:
            return strength(self.top if reversed_order else self.rank, reversed_order)
        return strength(self.rank, reversed_order)


def suit_key(reading: Cards) -> int:
    key = 0
    for card in reading:
        key += 1 << (2 * suit_of(card))
    return key


def suit_letters(key: int) -> list[str]:
    out: list[str] = []
    for s in range(4):
        out.extend([SUITS[s]] * (key >> (2 * s) & 3))
    return out


def classify(reading: Cards, joker_count: int) -> Combo | None:
    """The combination the represented number cards form, or ``None``."""
    size = len(reading)
    if size == 0:
        return None
    one = reading.one
    first = (one & -one).bit_length() - 1
    rank = first >> 2
    if not one & ~RANK_MASK[rank]:
        return Combo(SET, rank, size, suit_key(reading), reading, joker_count)
    if size < 3 or reading.two:
        return None
    suit = first & 3
    expected = 0
    for r in range(rank, rank + size):
        if r > 12:
            return None
        expected |= 1 << (4 * r + suit)
    if one != expected:
        return None
    return Combo(STAIRS, rank, size, 1 << (2 * suit), reading, joker_count)


def jokers_alone(count: int) -> Combo:
    return Combo(JOKERS, -1, count, -1, EMPTY, count)


def readings(nums: Cards, joker_count: int) -> list[tuple[Card, ...]]:
    """Every way the jokers can stand in beside ``nums`` (what each joker names, card order)."""
    if joker_count == 0 or not nums:
        return []
    out: list[tuple[Card, ...]] = []
    one = nums.one
    first = (one & -one).bit_length() - 1
    rank = first >> 2
    if not one & ~RANK_MASK[rank]:
        for suits in combinations_with_replacement(range(4), joker_count):
            named = tuple(rank * 4 + s for s in suits)
            if _fits(nums, named):
                out.append(named)
    suit = first & 3
    if not nums.two and all(c & 3 == suit for c in nums):
        ranks = [c >> 2 for c in nums]
        low, high = ranks[0], ranks[-1]
        gaps = [r for r in range(low, high + 1) if r not in ranks]
        extra = joker_count - len(gaps)
        if extra >= 0 and high - low + 1 + extra >= 3:
            for left in range(extra + 1):
                start, end = low - left, high + extra - left
                if start < 0 or end > 12:
                    continue
                named = tuple(
                    r * 4 + suit for r in range(start, end + 1) if r < low or r > high or r in gaps
                )
                if named not in out:
                    out.append(named)
    return out


def _fits(nums: Cards, named: Sequence[Card]) -> bool:
    try:
        from_list([*nums, *named])
    except ValueError:
        return False
    return True
