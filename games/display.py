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


# Engine events (`games.engine.events`, public form) told as sentences for spectators.
GAME_STATUS_LABELS = {
    "in_play": "in play 対局中",
    "finished": "finished 終了",
    "confirmed": "confirmed 確定",
    "void": "void 無効",
}


def event_sentence(event: Mapping[str, object], names: Mapping[int, str]) -> str:
    """One public event in words, e.g. "佐藤 played ♠8 ♥8" or "8切り eight-cut: 佐藤". Cards
    an event does not show (an exchange give during play) are told as a count."""
    seat = event.get("seat")
    who = names.get(seat, f"Seat {seat + 1}") if isinstance(seat, int) else ""
    kind = str(event.get("kind", ""))
    shown = _labels(_names(event.get("cards")))
    place = event.get("place")
    if kind == "played":
        return f"{who} played {shown}"
    if kind == "exchange_given":
        count = event.get("count", len(_names(event.get("cards"))))
        given = shown or f"{count} card(s)"
        return f"{who} gave {given} カード交換"
    if kind == "revolution":
        return (
            f"革命！ revolution: {who}"
            if event.get("on")
            else f"革命返し revolution reversed: {who}"
        )
    if kind == "lock_started":
        suits = event.get("suits")
        locked = (
            " ".join(SUITS[s][0] for s in suits if s in SUITS) if isinstance(suits, list) else ""
        )
        return f"しばり lock {locked}".rstrip()
    if kind == "eleven_back":
        order = "reversed 逆" if event.get("order") == "down" else "normal 順"
        return f"11バック eleven-back ({order}): {who}"
    if kind in ("finished", "foul_finish"):
        what = "went out あがり" if kind == "finished" else "反則あがり foul finish"
        return f"{who} {what}" + (f" — place {place} {place}位" if isinstance(place, int) else "")
    simple = {
        "passed": f"{who} passed パス",
        "trick_cleared": "trick cleared 場が流れました",
        "eight_cut": f"8切り eight-cut: {who}",
        "spade_three_return": f"スペ3返し spade-3 return: {who}",
        "heart_three_return": f"ハート3返し heart-3 return: {who}",
        "passes_reset": "passes reset パスのリセット",
        "number_lock_started": "数字しばり number lock",
        "instant_win": f"イッツー instant win: {who}",
        "miyako_ochi": f"都落ち miyako-ochi: {who}",
        "exchange_done": "card exchange done カード交換終了",
        "game_over": "game over 終了",
    }
    return simple.get(kind, kind.replace("_", " "))


def move_sentence(move: Mapping[str, object], names: Mapping[int, str]) -> str:
    """A public log row (`games.public.public_move`) as one line of sentences."""
    events = move.get("events")
    if isinstance(events, list) and events:
        return " · ".join(event_sentence(e, names) for e in events if isinstance(e, Mapping))
    reason = move.get("reason")
    if move.get("kind") == "undo":
        return "undo 取り消し" + (f" — {reason}" if reason else "")
    if move.get("kind") == "decision":
        return "undo decided 取り消しの判定"
    return str(move.get("kind", ""))
