"""Events: what a move caused, as small frozen values the service stores and broadcasts.

Every event has a ``kind`` string (stable, used in the replay output) and
:meth:`Event.to_dict` gives a JSON-able dict.  Events are the full log: some carry
private information (the cards given in the exchange, a 都落ち player's discarded
hand), so public feeds must serialise :func:`games.engine.core.observe`, not events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import CardSet, card_names

SUIT_LETTERS = "SHDC"


def suit_names(suits: int) -> list[str]:
    """Suit letters of a 4-bit suit mask."""
    return [SUIT_LETTERS[s] for s in range(4) if suits >> s & 1]


@dataclass(frozen=True, slots=True)
class Placing:
    """One seat's final (or, for finishers so far, definitive) place and title."""

    seat: int
    place: int | None
    title: str | None
    foul: bool = False
    miyako_ochi: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "place": self.place,
            "title": self.title,
            "foul": self.foul,
            "miyako_ochi": self.miyako_ochi,
        }


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A play: ``combination`` is ``single``, ``set`` or ``stairs``.

    ``as_cards`` is what the jokers stand for, when known.
    """

    kind: ClassVar[str] = "played"
    seat: int
    cards: CardSet
    combination: str
    as_cards: CardSet = 0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "seat": self.seat,
            "cards": card_names(self.cards),
            "combination": self.combination,
        }
        if self.as_cards:
            out["as"] = card_names(self.as_cards)
        return out


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "passed"
    seat: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class TrickCleared(Event):
    """The trick flowed (流れ) or was cleared; ``leader`` leads the next one."""

    kind: ClassVar[str] = "trick_cleared"
    leader: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "leader": self.leader}


@dataclass(frozen=True, slots=True)
class EightCut(Event):
    """8切り."""

    kind: ClassVar[str] = "eight_cut"
    seat: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Revolution(Event):
    """革命 (``on=True``) or 革命返し (``on=False``)."""

    kind: ClassVar[str] = "revolution"
    seat: int
    on: bool

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "on": self.on}


@dataclass(frozen=True, slots=True)
class LockStarted(Event):
    """スートしばり; ``suits`` is a 4-bit mask (♠ = 1, ♥ = 2, ♦ = 4, ♣ = 8)."""

    kind: ClassVar[str] = "lock_started"
    seat: int
    suits: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "suits": suit_names(self.suits)}


@dataclass(frozen=True, slots=True)
class SpadeThreeReturn(Event):
    """スペ3返し."""

    kind: ClassVar[str] = "spade_three_return"
    seat: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class HeartThreeReturn(Event):
    """♥3 beats a lone joker (gekijo ハーツ); ``respond`` when it was played out of turn."""

    kind: ClassVar[str] = "heart_three_return"
    seat: int
    respond: bool = False

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "respond": self.respond}


@dataclass(frozen=True, slots=True)
class ElevenBack(Event):
    """11-back (イレブンバック): the trick order is now ``order`` (``up`` normal, ``down``)."""

    kind: ClassVar[str] = "eleven_back"
    seat: int
    order: str

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "order": self.order}


@dataclass(frozen=True, slots=True)
class PassesReset(Event):
    """The effective order became reversed (下): every pass of the trick is reset."""

    kind: ClassVar[str] = "passes_reset"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class NumberLockStarted(Event):
    """数字しばり: every later play of the trick must be one step stronger."""

    kind: ClassVar[str] = "number_lock_started"
    seat: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class InstantWin(Event):
    """イッツー: ``seat`` showed one card of each rank and finishes; ``cards`` flow."""

    kind: ClassVar[str] = "instant_win"
    seat: int
    cards: CardSet

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "cards": card_names(self.cards)}


@dataclass(frozen=True, slots=True)
class Finished(Event):
    """A clean finish (あがり); ``place`` is definitive."""

    kind: ClassVar[str] = "finished"
    seat: int
    place: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place}


@dataclass(frozen=True, slots=True)
class FoulFinish(Event):
    """反則あがり: out, with a bottom title; ``place`` is definitive under foul_order
    ``first_lowest``, and the current bottom place (later demotions move it up) under
    ``latest_lowest``."""

    kind: ClassVar[str] = "foul_finish"
    seat: int
    place: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place}


@dataclass(frozen=True, slots=True)
class MiyakoOchi(Event):
    """都落ち: the reigning 大富豪 is out; ``discarded`` is their hand (private)."""

    kind: ClassVar[str] = "miyako_ochi"
    seat: int
    discarded: CardSet

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "discarded": card_names(self.discarded)}


@dataclass(frozen=True, slots=True)
class ExchangeGiven(Event):
    """One side of the card exchange (カード交換); ``cards`` are private."""

    kind: ClassVar[str] = "exchange_given"
    seat: int
    to: int
    cards: CardSet

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "to": self.to,
            "cards": card_names(self.cards),
        }


@dataclass(frozen=True, slots=True)
class ExchangeDone(Event):
    """Every seat has given; the cards change hands and play starts with ``leader``."""

    kind: ClassVar[str] = "exchange_done"
    leader: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "leader": self.leader}


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    placings: tuple[Placing, ...]

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "placings": [p.to_dict() for p in self.placings]}


EVENT_KINDS = tuple(
    cls.kind
    for cls in (
        Played,
        Passed,
        TrickCleared,
        EightCut,
        Revolution,
        LockStarted,
        SpadeThreeReturn,
        HeartThreeReturn,
        ElevenBack,
        PassesReset,
        NumberLockStarted,
        InstantWin,
        Finished,
        FoulFinish,
        MiyakoOchi,
        ExchangeGiven,
        ExchangeDone,
        GameOver,
    )
)
