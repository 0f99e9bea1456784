"""Seeded, reproducible deals with blind cards (ブラインドカード).

The random stream is SHA-256 in counter mode, so a deal depends only on the seed
and this module's algorithm version (``kakumei-deal/1``), never on the Python
version or on :mod:`random`'s internals:

1. ``key = SHA-256(b"kakumei-deal/1\\x00" + seed_bytes)`` where ``seed_bytes`` is the
   seed itself (``bytes``), its UTF-8 encoding (``str``) or the UTF-8 encoding of
   its decimal representation (``int``);
2. block ``i`` of the stream is ``SHA-256(key + i.to_bytes(8, "big"))``, read as
   big-endian 64-bit words;
3. ``below(n)`` draws words and rejects those ``>= 2**64 - 2**64 % n`` (no modulo bias),
   returning ``word % n``;
4. Fisher–Yates shuffles the 52 number cards (``for i = len-1 … 1: swap(i, below(i+1))``);
   the first ``rules.blind_cards`` are the blinds;
5. the remaining number cards plus the ruleset's jokers (bits 52, 53, appended in
   that order; bit 52 only with one joker) are shuffled the same way and dealt one
   at a time: card ``i`` goes to seat ``i % seats``.

Anyone with the seed (published after play, docs/design.md) can re-derive the deal.

The same stream under the domain ``kakumei-stalemate/1`` draws the places of the seats left
in a game that 千日手 ended (switch ``stalemate_passes``, :func:`stalemate_order`): its seed
is the game's :func:`stalemate_seed`, which the deal and the cards played so far determine,
so every replay of a record draws the same places and anyone can check them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CardSet, card_names
from .errors import EngineError
from .multideck import Cards, from_cards
from .rules import RuleSet

ALGORITHM = "kakumei-deal/1"
STALEMATE_ALGORITHM = "kakumei-stalemate/1"


class _Stream:
    __slots__ = ("_block", "_buffer", "_key")

    def __init__(self, seed: bytes, domain: str = ALGORITHM) -> None:
        self._key = hashlib.sha256(domain.encode() + b"\x00" + seed).digest()
        self._block = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 8:
            self._buffer += hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        word, self._buffer = self._buffer[:8], self._buffer[8:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_bytes(seed: bytes | str | int) -> bytes:
    """The bytes a seed stands for (see the module docstring)."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str):
        return seed.encode("utf-8")
    if type(seed) is int:  # not bool: True is no seed
        return str(seed).encode("ascii")
    raise EngineError(
        f"a seed must be bytes, str or int, not {type(seed).__name__}", code="bad_seed"
    )


@dataclass(frozen=True, slots=True)
class Deal:
    """Hands per seat (card-set masks) and the blind cards."""

    hands: tuple[CardSet, ...]
    blind: CardSet

    def to_record(self) -> dict[str, object]:
        """The ``hands`` and ``blind`` keys of a record."""
        return {"hands": [card_names(h) for h in self.hands], "blind": card_names(self.blind)}


def deal(seed: bytes | str | int, rules: RuleSet) -> Deal:
    """Deal a game reproducibly from ``seed`` under ``rules`` (blinds, then 13 each for JDF)."""
    stream = _Stream(seed_bytes(seed))
    numbers = list(range(52))
    stream.shuffle(numbers)
    blind = 0
    for card in numbers[: rules.blind_cards]:
        blind |= 1 << card
    rest = [*numbers[rules.blind_cards :], 52, 53][: 52 - rules.blind_cards + rules.jokers]
    stream.shuffle(rest)
    hands = [0] * rules.seats
    for i, card in enumerate(rest):
        hands[i % rules.seats] |= 1 << card
    return Deal(hands=tuple(hands), blind=blind)


def deal_multi(seed: bytes | str | int, deck: Cards, seats: int) -> tuple[Cards, ...]:
    """Deal a two-deck multiset reproducibly (Guandan: 108 cards, 27 each to 4 seats).

    The same stream as :func:`deal`: the deck's cards in card order (each copy in turn) are
    shuffled once and dealt one at a time, card ``i`` to seat ``i % seats``.
    """
    if not 1 <= seats <= len(deck):
        raise EngineError(f"cannot deal {len(deck)} cards to {seats} seats", code="bad_seats")
    cards = list(deck)
    _Stream(seed_bytes(seed)).shuffle(cards)
    return tuple(from_cards(cards[s::seats]) for s in range(seats))


def stalemate_seed(
    dealt: Sequence[CardSet | None],
    blind: CardSet | None,
    titles: Sequence[str] | None,
    played: CardSet,
    counts: Sequence[int],
) -> bytes:
    """The seed of a 千日手 draw: the UTF-8 text
    ``deal=H0,H1,…;blind=B;titles=T0,T1,…;played=P;counts=C0,C1,…`` where ``Hi`` is seat
    ``i``'s dealt hand as a lowercase hexadecimal card mask (``?`` for an unknown hand), ``B``
    the blind cards' mask (``?`` when unknown), ``Ti`` the titles of a later game (empty in a
    first game), ``P`` the mask of every card played so far and ``Ci`` the cards each seat
    holds. Card bits are ``rank * 4 + suit`` (``cards.py``)."""
    hands = ",".join("?" if h is None else format(h, "x") for h in dealt)
    text = (
        f"deal={hands};blind={'?' if blind is None else format(blind, 'x')};"
        f"titles={','.join(titles or ())};played={played:x};counts={','.join(map(str, counts))}"
    )
    return text.encode("utf-8")


def shuffled(seed: bytes, domain: str, items: Sequence[int]) -> tuple[int, ...]:
    """``items`` in the order Fisher–Yates (step 4 of the deal) draws on the SHA-256 stream of
    ``seed`` under ``domain``: the deal's own draw under another name, for the other draws that
    anyone must be able to check (千日手's places here, UECda's seat changes in the service)."""
    order = list(items)
    _Stream(seed, domain).shuffle(order)
    return tuple(order)


def stalemate_order(seed: bytes, seats: Sequence[int]) -> tuple[int, ...]:
    """The order of places drawn for ``seats`` (in seat order) after 千日手, on the
    ``kakumei-stalemate/1`` stream of ``seed``; the first seat of the result takes the best
    of the places left."""
    return shuffled(seed, STALEMATE_ALGORITHM, seats)
