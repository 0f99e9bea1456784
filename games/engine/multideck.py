"""Cards for the families that play with two decks (Guandan 掼蛋, 大財閥): a multiset of up to
two copies of each card, and two kinds of joker.

大富豪 keeps its one-deck :data:`~games.engine.cards.CardSet` (one bit per card) for speed; a
two-deck hand is :class:`Cards`, two such masks: ``one`` holds every card the hand has at
least one copy of, ``two`` every card it has both copies of (``two`` ⊆ ``one``). Adding,
removing and containment stay a handful of bitwise operations::

    >>> hand = parse_multi("5H 5H SJ BJ")
    >>> len(hand), hand.count(parse_card("5H")), format_multi(hand)
    (4, 2, '5H 5H SJ BJ')
    >>> format_multi(hand - parse_multi("5H BJ"))
    '5H SJ'

The card numbers are :mod:`~games.engine.cards`' (``rank * 4 + suit`` for 0…51); the jokers
are two different cards here: bit 52 the small (black) joker ``SJ`` 小王, bit 53 the big (red)
joker ``BJ`` 大王 (DESIGN: Guandan's 108-card double deck).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import NUMBERS, Card, CardSet, format_card, parse_card
from .errors import InvalidNotation

SMALL_JOKER: Final[Card] = 52
"""小王 (small / black joker), ``SJ``."""
BIG_JOKER: Final[Card] = 53
"""大王 (big / red joker), ``BJ``."""
_KINDS: Final[CardSet] = (1 << 54) - 1
_JOKER_NAMES: Final[dict[str, Card]] = {
    "SJ": SMALL_JOKER,
    "小王": SMALL_JOKER,
    "BJ": BIG_JOKER,
    "大王": BIG_JOKER,
}


@dataclass(frozen=True, slots=True)
class Cards:
    """An immutable multiset of cards, at most two copies of each (see the module docstring)."""

    one: CardSet = 0
    two: CardSet = 0

    def __post_init__(self) -> None:
        if self.two & ~self.one or (self.one | self.two) & ~_KINDS:
            raise ValueError("not a two-deck card multiset (two ⊄ one, or an unknown card)")

    def __len__(self) -> int:
        return self.one.bit_count() + self.two.bit_count()

    def __bool__(self) -> bool:
        return self.one != 0

    def count(self, card: Card) -> int:
        """How many copies of ``card`` (0, 1 or 2)."""
        return (self.one >> card & 1) + (self.two >> card & 1)

    def __contains__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return not (other.one & ~self.one or other.two & ~self.two)
        return isinstance(other, int) and bool(self.one >> other & 1)

    def __add__(self, other: Cards) -> Cards:
        """Both multisets together; more than two copies of a card is a ``ValueError``."""
        if self.two & other.one or other.two & self.one:
            raise ValueError("more than two copies of a card")
        return Cards(self.one | other.one, self.two | other.two | (self.one & other.one))

    def __sub__(self, other: Cards) -> Cards:
        """``self`` without ``other``; ``other`` must be contained (else ``ValueError``)."""
        if other not in self:
            raise ValueError("removing cards that are not there")
        return Cards((self.one & ~other.one) | (self.two & ~other.two), self.two & ~other.one)

    def __iter__(self) -> Iterator[Card]:
        """Every card, in card order, each as many times as held."""
        one, two = self.one, self.two
        while one:
            low = one & -one
            card = low.bit_length() - 1
            yield card
            if two & low:
                yield card
            one ^= low

    def distinct(self) -> CardSet:
        """The kinds of card held (a one-deck mask, for rank and suit tests)."""
        return self.one

    def numbers(self) -> Cards:
        """The number cards only (no jokers)."""
        return Cards(self.one & NUMBERS, self.two & NUMBERS)


EMPTY: Final = Cards()
DOUBLE_DECK: Final = Cards(_KINDS, _KINDS)
"""Two full decks with both jokers: 108 cards (Guandan)."""


def from_cards(cards: Iterable[Card]) -> Cards:
    """The multiset of card numbers (a card may appear at most twice)."""
    out = EMPTY
    for card in cards:
        if not 0 <= card < 54:
            raise InvalidNotation(f"no card {card!r}")
        out = out + Cards(1 << card)
    return out


def parse_multi_card(text: object) -> Card:
    """One card: the one-deck notation (``5H``, ``10S``, ``♠10``) or a joker ``SJ`` / ``BJ``."""
    name = text.strip().upper() if isinstance(text, str) else text
    if isinstance(name, str) and name in _JOKER_NAMES:
        return _JOKER_NAMES[name]
    card = parse_card(text)
    if card >= 52:
        raise InvalidNotation(
            f"{text!r}: a two-deck game has two different jokers, SJ (小王) and BJ (大王)"
        )
    return card


def parse_multi(cards: str | Sequence[str]) -> Cards:
    """A multiset from names (``"5H 5H SJ"`` or a list); more than two of a card is an error."""
    names = cards.split() if isinstance(cards, str) else list(cards)
    try:
        return from_cards(parse_multi_card(name) for name in names)
    except ValueError as error:
        if isinstance(error, InvalidNotation):
            raise
        raise InvalidNotation(f"{error} in {names!r}") from None


def multi_card_name(card: Card) -> str:
    if card == SMALL_JOKER:
        return "SJ"
    if card == BIG_JOKER:
        return "BJ"
    return format_card(card)


def multi_names(cards: Cards) -> list[str]:
    """The canonical names, weakest first, duplicates repeated (what records store)."""
    return [multi_card_name(card) for card in cards]


def format_multi(cards: Cards) -> str:
    return " ".join(multi_names(cards))
