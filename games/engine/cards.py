"""Cards, card sets and their notation.

A card is an ``int`` in ``0..53``: bit ``rank * 4 + suit`` for the 52 number cards
(ranks ``3 4 5 6 7 8 9 T J Q K A 2`` → ``0..12``, suits ``S H D C`` → ``0..3``) and
bits 52 and 53 for the two jokers.  A *card set* (a hand, a play) is an ``int``
bitmask of cards.  The rank-major layout makes "all four 7s" one AND with
:data:`RANK_MASK` and a same-suit run one table lookup.

The two jokers are distinct bits so that card conservation can be checked, but
they are equivalent in play: the canonical text of both is ``JK``, and
:func:`parse_cards` gives the first ``JK`` bit 52 and the second bit 53.  So
``parse_cards(format_cards(x)) == normalise_jokers(x)`` for every card set ``x``.

>>> format_cards(parse_cards("10s ♥3 jk d5"))
'3H 5D TS JK'

What a joker stands for (a move's ``as``) is a card set too, with eight more bits for
the positions beyond the ends of a run (``joker_beyond_ends``, UECda's columns 0 and
14): bit ``54 + suit`` is the position below the 3 of that suit, written ``-S`` …,
and bit ``58 + suit`` the position above its 2, written ``+S`` ….  They are never
cards: only :func:`parse_joker_targets` reads them.

>>> card_names(parse_joker_targets("+H 9S"))
['9S', '+H']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TypeAlias

from .errors import InvalidNotation

Card: TypeAlias = int
CardSet: TypeAlias = int

RANKS: Final = "3456789TJQKA2"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

RANK_3: Final = 0
RANK_8: Final = 5
RANK_2: Final = 12
JOKER_RANK: Final = 13
"""Rank index used for a combination made of jokers only (a single joker, ``JK JK``)."""

JOKER: Final[Card] = 52
JOKER_2: Final[Card] = 53
JOKERS: Final[CardSet] = 3 << 52
NUMBERS: Final[CardSet] = (1 << 52) - 1
FULL_DECK: Final[CardSet] = (1 << 54) - 1
SPADE_3: Final[CardSet] = 1 << (RANK_3 * 4 + SPADES)
BELOW_3: Final = 54
"""Joker-target bit of the position below the 3 of ♠ (``54 + suit``; written ``-S``)."""
ABOVE_2: Final = 58
"""Joker-target bit of the position above the 2 of ♠ (``58 + suit``; written ``+S``)."""
BEYOND_ENDS: Final[CardSet] = 0xFF << BELOW_3
"""Every joker-target bit beyond the ends of a run (below 3, above 2; all suits)."""
JOKER_TARGETS: Final[CardSet] = NUMBERS | BEYOND_ENDS
"""What a joker may stand for: a number card, or a position beyond the ends of a run."""

RANK_MASK: Final[tuple[CardSet, ...]] = tuple(0xF << (4 * r) for r in range(13))
SUIT_MASK: Final[tuple[CardSet, ...]] = tuple(
    sum(1 << (4 * r + s) for r in range(13)) for s in range(4)
)
_JOKER_FILL: Final[tuple[CardSet, ...]] = (0, 1 << 52, 3 << 52)

_SUIT_ALIASES: Final[dict[str, int]] = {
    "S": SPADES,
    "H": HEARTS,
    "D": DIAMONDS,
    "C": CLUBS,
    "♠": SPADES,
    "♤": SPADES,
    "♥": HEARTS,
    "♡": HEARTS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "♣": CLUBS,
    "♧": CLUBS,
}
_RANK_ALIASES: Final[dict[str, int]] = {ch: i for i, ch in enumerate(RANKS)} | {"10": 7}
_JOKER_NAMES: Final = frozenset({"JK", "JOKER", "JKR", "🃏"})
_NAMES: Final[tuple[str, ...]] = (
    *tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(52)),
    "JK",
    "JK",
    *tuple("-" + s for s in SUITS),
    *tuple("+" + s for s in SUITS),
)


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = 3 … 12 = 2) and ``suit`` (0 = ♠ … 3 = ♣)."""
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    """Rank index ``0..12``, or :data:`JOKER_RANK` for a joker."""
    return card >> 2 if card < 52 else JOKER_RANK


def suit_of(card: Card) -> int:
    """Suit index ``0..3``, or ``-1`` for a joker."""
    return card & 3 if card < 52 else -1


def iter_cards(mask: CardSet) -> Iterator[Card]:
    """The cards of ``mask``, weakest bit first (like ``chess.scan_forward``)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: CardSet) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def joker_count(mask: CardSet) -> int:
    return (mask >> 52).bit_count()


def normalise_jokers(mask: CardSet) -> CardSet:
    """``mask`` with its jokers moved to the lowest joker bits (the canonical form)."""
    return (mask & NUMBERS) | _JOKER_FILL[(mask >> 52).bit_count()]


def format_card(card: Card) -> str:
    """Canonical text of one card: ``3D``, ``TS``, ``JK``."""
    if not 0 <= card < 54:
        raise InvalidNotation(f"no such card index: {card!r}")
    return _NAMES[card]


def card_names(mask: CardSet) -> list[str]:
    """Canonical names of the cards in ``mask``, weakest first."""
    return [_NAMES[c] for c in iter_cards(mask)]


def format_cards(mask: CardSet) -> str:
    """Canonical space-separated text of a card set, weakest first."""
    if mask < 0 or mask > FULL_DECK:
        raise InvalidNotation(f"not a card set: {mask!r}")
    return " ".join(card_names(mask))


_TWO_DECK_JOKERS: Final = frozenset({"SJ", "BJ"})
"""The two-deck jokers' codes (``multideck``): never read as a suit-first ♠J here, so a
joker code never collides with a card code (♠J is ``JS``)."""


def parse_card(text: object) -> Card:
    """Parse one card, leniently: ``3D``, ``TS``, ``10S``, ``♠10``, ``s10``, ``jk``.

    A joker parses as bit 52.  Raises :class:`InvalidNotation` (code
    ``unknown_card``) for anything else.  Typed ``object``: records hold whatever JSON they
    like, and the compiled build checks a ``str`` parameter before this body could.
    """
    if not isinstance(text, str):
        raise InvalidNotation(f"unknown card {text!r}: not a string")
    token = text.strip().upper()
    if token in _JOKER_NAMES:
        return JOKER
    if len(token) >= 2:
        # Suit last (3D, 10S) is canonical; suit first (♠10, S10) is accepted too.
        suit = _SUIT_ALIASES.get(token[-1])
        rank = _RANK_ALIASES.get(token[:-1])
        if suit is not None and rank is not None:
            return rank * 4 + suit
        suit = _SUIT_ALIASES.get(token[0])
        rank = _RANK_ALIASES.get(token[1:])
        if suit is not None and rank is not None and token not in _TWO_DECK_JOKERS:
            return rank * 4 + suit
    raise InvalidNotation(f"unknown card {text!r}")


def parse_cards(text: str | Iterable[str]) -> CardSet:
    """Parse a card set from text (``"3D TS,JK"``) or from a sequence of card strings.

    The first joker is bit 52, the second bit 53.  A repeated number card or a
    third joker raises :class:`InvalidNotation` (code ``unknown_card``).
    """
    tokens: Iterable[str]
    tokens = text.replace(",", " ").split() if isinstance(text, str) else text
    mask = 0
    for token in tokens:
        card = parse_card(token)
        if card == JOKER:
            if mask & (1 << JOKER_2):
                raise InvalidNotation(f"unknown card {token!r}: a deck has only two jokers")
            card = JOKER_2 if mask & (1 << JOKER) else JOKER
        elif mask & (1 << card):
            raise InvalidNotation(f"unknown card {token!r}: the card is repeated")
        mask |= 1 << card
    return mask


def parse_joker_targets(text: str | Iterable[str]) -> CardSet:
    """Parse what jokers stand for (a move's ``as``): cards as :func:`parse_cards` reads
    them, plus ``-S`` … (the position below the 3 of a suit) and ``+S`` … (above its 2).

    Whether the targets fit the play is the rules' question, not the notation's.
    """
    tokens: Iterable[str]
    tokens = text.replace(",", " ").split() if isinstance(text, str) else text
    cards: list[str] = []
    beyond = 0
    for token in tokens:
        bit = _beyond_bit(token)
        if bit is None:
            cards.append(token)
        elif beyond & bit:
            raise InvalidNotation(f"unknown card {token!r}: the card is repeated")
        else:
            beyond |= bit
    return parse_cards(cards) | beyond


def _beyond_bit(token: object) -> CardSet | None:
    """The bit of ``-S`` … / ``+S`` …, or None when ``token`` is not one of them."""
    if not isinstance(token, str):
        return None
    text = token.strip().upper()
    if len(text) != 2 or text[0] not in "+-":
        return None
    suit = _SUIT_ALIASES.get(text[1])
    if suit is None:
        return None
    return 1 << ((ABOVE_2 if text[0] == "+" else BELOW_3) + suit)


def lowest_cards(cards: CardSet, k: int) -> CardSet:
    """The ``k`` lowest cards of ``cards`` in card order (rank-major, jokers last): the
    weakest ``k`` in the normal order."""
    chosen = 0
    rest = cards
    while rest and chosen.bit_count() < k:
        low = rest & -rest
        chosen |= low
        rest ^= low
    return chosen


def lowest_jokers(available: CardSet, k: int) -> CardSet:
    """The ``k`` lowest joker bits of ``available`` (0 when fewer are available)."""
    jokers = available & JOKERS
    if k == 0:
        return 0
    if k == 1:
        return jokers & -jokers
    return jokers if jokers == JOKERS else 0
