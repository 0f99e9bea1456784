"""Events: what a move caused, as small frozen values the service stores and broadcasts.

Every event has a ``kind`` string (stable, used in the replay output) and
:meth:`Event.to_dict` gives a JSON-able dict.  Events are the full log: some carry
private information (the cards given in the exchange, a 都落ち player's discarded
hand), so public feeds must serialise :func:`games.engine.core.observe`, not events.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    stalemate: bool = False
    """Placed by the 千日手 draw (``stalemate_passes``); ``to_dict`` has the key only then."""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "seat": self.seat,
            "place": self.place,
            "title": self.title,
            "foul": self.foul,
            "miyako_ochi": self.miyako_ochi,
        }
        if self.stalemate:
            out["stalemate"] = True
        return out


@dataclass(frozen=True, slots=True)
class Event:
    # ``kind`` is a property in every event, not a ClassVar: mypyc (the optional compiled
    # build) turns a ClassVar of a dataclass into a field (mypyc/mypyc#1122).
    @property
    def kind(self) -> str:
        return "event"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A play: ``combination`` is ``single``, ``set`` or ``stairs``.

    ``as_cards`` is what the jokers stand for, when known.
    """

    seat: int
    cards: CardSet
    combination: str
    as_cards: CardSet = 0

    @property
    def kind(self) -> str:
        return "played"

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
    seat: int

    @property
    def kind(self) -> str:
        return "passed"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class TrickCleared(Event):
    """The trick flowed (流れ) or was cleared; ``leader`` leads the next one."""

    leader: int

    @property
    def kind(self) -> str:
        return "trick_cleared"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "leader": self.leader}


@dataclass(frozen=True, slots=True)
class EightCut(Event):
    """8切り."""

    seat: int

    @property
    def kind(self) -> str:
        return "eight_cut"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Revolution(Event):
    """革命 (``on=True``) or 革命返し (``on=False``)."""

    seat: int
    on: bool

    @property
    def kind(self) -> str:
        return "revolution"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "on": self.on}


@dataclass(frozen=True, slots=True)
class LockStarted(Event):
    """スートしばり; ``suits`` is a 4-bit mask (♠ = 1, ♥ = 2, ♦ = 4, ♣ = 8)."""

    seat: int
    suits: int

    @property
    def kind(self) -> str:
        return "lock_started"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "suits": suit_names(self.suits)}


@dataclass(frozen=True, slots=True)
class SpadeThreeReturn(Event):
    """スペ3返し."""

    seat: int

    @property
    def kind(self) -> str:
        return "spade_three_return"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class HeartThreeReturn(Event):
    """♥3 beats a lone joker (gekijo ハーツ); ``respond`` when it was played out of turn."""

    seat: int
    respond: bool = False

    @property
    def kind(self) -> str:
        return "heart_three_return"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "respond": self.respond}


@dataclass(frozen=True, slots=True)
class ElevenBack(Event):
    """11-back (イレブンバック): the trick order is now ``order`` (``up`` normal, ``down``)."""

    seat: int
    order: str

    @property
    def kind(self) -> str:
        return "eleven_back"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "order": self.order}


@dataclass(frozen=True, slots=True)
class PassesReset(Event):
    """The effective order became reversed (下): every pass of the trick is reset."""

    @property
    def kind(self) -> str:
        return "passes_reset"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class NumberLockStarted(Event):
    """数字しばり: every later play of the trick must be one step stronger."""

    seat: int

    @property
    def kind(self) -> str:
        return "number_lock_started"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class InstantWin(Event):
    """イッツー: ``seat`` showed one card of each rank and finishes; ``cards`` flow."""

    seat: int
    cards: CardSet

    @property
    def kind(self) -> str:
        return "instant_win"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "cards": card_names(self.cards)}


@dataclass(frozen=True, slots=True)
class Finished(Event):
    """A clean finish (あがり); ``place`` is definitive."""

    seat: int
    place: int

    @property
    def kind(self) -> str:
        return "finished"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place}


@dataclass(frozen=True, slots=True)
class FoulFinish(Event):
    """反則あがり: out, with a bottom title; ``place`` is definitive under foul_order
    ``first_lowest``, and the current bottom place (later demotions move it up) under
    ``latest_lowest``."""

    seat: int
    place: int

    @property
    def kind(self) -> str:
        return "foul_finish"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place}


@dataclass(frozen=True, slots=True)
class MiyakoOchi(Event):
    """都落ち: the reigning 大富豪 is out; ``discarded`` is their hand (private)."""

    seat: int
    discarded: CardSet

    @property
    def kind(self) -> str:
        return "miyako_ochi"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "discarded": card_names(self.discarded)}


@dataclass(frozen=True, slots=True)
class ExchangeGiven(Event):
    """One side of the card exchange (カード交換); ``cards`` are private."""

    seat: int
    to: int
    cards: CardSet

    @property
    def kind(self) -> str:
        return "exchange_given"

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

    leader: int

    @property
    def kind(self) -> str:
        return "exchange_done"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "leader": self.leader}


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    placings: tuple[Placing, ...]

    @property
    def kind(self) -> str:
        return "game_over"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "placings": [p.to_dict() for p in self.placings]}


@dataclass(frozen=True, slots=True)
class Misplay(Event):
    """プンリー: the referee recorded a misplay; ``cards`` stay ``seat``'s, exposed face up."""

    seat: int
    cards: CardSet

    @property
    def kind(self) -> str:
        return "misplay"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "cards": card_names(self.cards)}


@dataclass(frozen=True, slots=True)
class Stalemate(Event):
    """千日手: ``passes`` passes in a row ended the game; ``seats`` are the seats still in it,
    in the order drawn for their places (best first)."""

    seats: tuple[int, ...]
    passes: int

    @property
    def kind(self) -> str:
        return "stalemate"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seats": list(self.seats), "passes": self.passes}


EVENT_KINDS = (
    "played",
    "passed",
    "trick_cleared",
    "eight_cut",
    "revolution",
    "lock_started",
    "spade_three_return",
    "heart_three_return",
    "eleven_back",
    "passes_reset",
    "number_lock_started",
    "instant_win",
    "finished",
    "foul_finish",
    "miyako_ochi",
    "exchange_given",
    "exchange_done",
    "misplay",
    "stalemate",
    "game_over",
)
