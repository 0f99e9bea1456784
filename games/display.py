"""Cards and log rows in words for the referee console: a stored payload is record-format JSON,
which a referee should never have to read (`{'seat': 0, 'play': ['3S']}`), so each row of a
game's log is told as a sentence with card symbols ("Seat 1 played ♠3").

Seats are shown 1-based, as the console's seat table numbers them (a payload's `seat` is the
0-based record seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}
CALLS = {"up": "up 上", "down": "down 下"}
DECLARES = {"set": "read as a set 組", "stairs": "read as stairs 階段"}


def card(code: str) -> dict[str, str]:
    """A card for templates: its code (form value) and a readable label."""
    if code == "JK":
        return {"code": code, "label": "JK", "colour": "joker"}
    rank = "10" if code[0] == "T" else code[0]
    symbol, colour = SUITS[code[1]]
    return {"code": code, "label": f"{symbol}{rank}", "colour": colour}


def cards(codes: list[str]) -> list[dict[str, str]]:
    return [card(c) for c in codes]


@dataclass(frozen=True, slots=True)
class LogLine:
    """One log row told in words: `words`, then `cards` (shown as cards), then `tail`, then
    `notes` (out of turn, an 11-back call, the joker's reading, …)."""

    seq: int
    words: str
    cards: tuple[dict[str, str], ...] = ()
    tail: str = ""
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [self.words, *(c["label"] for c in self.cards)]
        if self.tail:
            parts.append(self.tail)
        return " · ".join([" ".join(parts), *self.notes])


def _names(value: object) -> list[str]:
    """Card codes from a stored list (anything else shows as nothing, never as a repr)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [
        v for v in value if isinstance(v, str) and (v == "JK" or (len(v) == 2 and v[1] in SUITS))
    ]


def _labels(codes: list[str]) -> str:
    return " ".join(card(c)["label"] for c in codes)


def log_line(
    seq: int, kind: str, payload: object, *, undone: bool = False, reason: str = ""
) -> LogLine:
    """A log row (`games.models.Move`: kind action / undo / decision) in words."""
    data: Mapping[str, object] = payload if isinstance(payload, Mapping) else {}
    if kind == "undo":
        words = f"Undo of move {data.get('undo', '?')} 取り消し"
        return LogLine(seq, words, tail=f"— {reason}" if reason else "")
    if kind == "decision":
        verdict = "approved 承認" if data.get("approve") is True else "refused 却下"
        return LogLine(seq, f"Undo request {data.get('decide', '?')} {verdict}")
    seat = data.get("seat")
    who = f"Seat {seat + 1}" if isinstance(seat, int) and not isinstance(seat, bool) else "A seat"
    undone_note = ("undone 取り消し済み",) if undone else ()
    if "give" in data:
        given = tuple(cards(_names(data["give"])))
        return LogLine(seq, f"{who} gave", given, "to the exchange 交換", undone_note)
    if data.get("pass") is True:
        return LogLine(seq, f"{who} passed パス", notes=undone_note)
    notes: list[str] = []
    if data.get("respond") is True:
        notes.append("out of turn 手番外")
    choice = data.get("choice")
    if isinstance(choice, str):
        notes.append(f"11-back call {CALLS.get(choice, choice)} イレブンバック")
    declare = data.get("declare")
    if declare == "instant_win":
        notes.append("イッツー instant win")
    elif isinstance(declare, str):
        notes.append(DECLARES.get(declare, f"declared {declare}"))
    joker_as = data.get("as")
    if isinstance(joker_as, Mapping):
        joker_as = joker_as.get("JK")
    if _names(joker_as):
        notes.append(f"joker as {_labels(_names(joker_as))}")
    played = tuple(cards(_names(data.get("play"))))
    return LogLine(seq, f"{who} played", played, notes=(*notes, *undone_note))


# Titles by finishing place (they drive the next game's card exchange).
TITLE_LABELS = {
    "daifugo": "大富豪 Daifugō",
    "fugo": "富豪 Fugō",
    "heimin": "平民 Heimin",
    "hinmin": "貧民 Hinmin",
    "daihinmin": "大貧民 Daihinmin",
}
