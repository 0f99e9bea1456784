"""Cards and log rows in words for the referee console and the public live page: a stored
payload is record-format JSON, which a referee should never have to read
(`{'seat': 0, 'play': ['3S']}`), so each row of a game's log is told as a sentence with card
symbols ("Seat 1 played ♠3" / 「1番席が♠3を出しました」), in the active language.

Every sentence is one translated message with placeholders. A log row keeps its cards apart
(the console shows them as cards): the sentence is split where its `%(cards)s` placeholder
stands, into `words` before the cards and `tail` after them.

Seats are shown 1-based, as the console's seat table numbers them (a payload's `seat` is the
0-based record seat).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django_stubs_ext import StrOrPromise

from games.engine import InvalidNotation, format_card, parse_card


class Labels(Mapping[str, str]):
    """Labels by code, defined at import time (lazy messages) and read in the language active
    when they are looked up: `TITLE_LABELS["daifugo"]` is "Grand millionaire" or 「大富豪」."""

    def __init__(self, labels: Mapping[str, StrOrPromise]) -> None:
        self._labels = dict(labels)

    def __getitem__(self, code: str) -> str:
        return str(self._labels[code])

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __len__(self) -> int:
        return len(self._labels)


SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}
# An 11-back call (イレブンバック) and how a set of cards was declared, as log notes.
CALLS = Labels({"up": gettext_lazy("11-back call: up"), "down": gettext_lazy("11-back call: down")})
DECLARES = Labels({"set": gettext_lazy("read as a set"), "stairs": gettext_lazy("read as stairs")})

_CARDS = "\x00"  # where a sentence's cards stand, to split it around them


def typed_codes(text: str) -> list[str]:
    """Cards as a referee types them, as codes (3S 10H TH jk) or as the pages show them
    (♠3 ♥10), read by the engine's own parser into codes; a word it cannot read is passed on
    for the engine to refuse by name."""
    codes = []
    for word in text.split():
        try:
            codes.append(format_card(parse_card(word)))
        except InvalidNotation:
            codes.append(word)
    return codes


def card(code: str) -> dict[str, str]:
    """A card for templates: its code (form value) and a readable label."""
    if code == "JK":
        return {"code": code, "label": "JK", "colour": "joker"}
    rank = "10" if code[0] == "T" else code[0]
    symbol, colour = SUITS[code[1]]
    return {"code": code, "label": f"{symbol}{rank}", "colour": colour}


def cards(codes: list[str]) -> list[dict[str, str]]:
    return [card(c) for c in codes]


def seat_name(seat: int) -> str:
    """A 0-based record seat as people number it: "Seat 3" / 「3番席」."""
    return _("Seat %(number)s") % {"number": seat + 1}


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
        return " · ".join([" ".join(p for p in parts if p), *self.notes])


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


def _around_cards(sentence: str, **values: object) -> tuple[str, str]:
    """A translated sentence with a `%(cards)s` placeholder, split into the words before the
    cards and the words after them."""
    words, _mark, tail = (sentence % {**values, "cards": _CARDS}).partition(_CARDS)
    return words.strip(), tail.strip()


def log_line(
    seq: int, kind: str, payload: object, *, undone: bool = False, reason: str = ""
) -> LogLine:
    """A log row (`games.models.Move`: kind action / undo / decision) in words."""
    data: Mapping[str, object] = payload if isinstance(payload, Mapping) else {}
    if kind == "undo":
        words = _("Undo of move %(seq)s") % {"seq": data.get("undo", "?")}
        return LogLine(seq, words, tail=f"— {reason}" if reason else "")
    if kind == "decision":
        request = {"seq": data.get("decide", "?")}
        if data.get("approve") is True:
            return LogLine(seq, _("Undo request %(seq)s approved") % request)
        return LogLine(seq, _("Undo request %(seq)s refused") % request)
    seat = data.get("seat")
    who = seat_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else _("A seat")
    undone_note = (_("undone"),) if undone else ()
    if "give" in data:
        given = tuple(cards(_names(data["give"])))
        words, tail = _around_cards(_("%(who)s gave %(cards)s to the exchange"), who=who)
        return LogLine(seq, words, given, tail, undone_note)
    if data.get("pass") is True:
        return LogLine(seq, _("%(who)s passed") % {"who": who}, notes=undone_note)
    if "misplay" in data:
        shown = tuple(cards(_names(data["misplay"])))
        words, tail = _around_cards(_("%(who)s misplayed %(cards)s (punrī, face up)"), who=who)
        return LogLine(seq, words, shown, tail, undone_note)
    notes: list[str] = []
    if data.get("respond") is True:
        notes.append(_("out of turn"))
    choice = data.get("choice")
    if isinstance(choice, str):
        notes.append(CALLS.get(choice) or _("11-back call: %(call)s") % {"call": choice})
    declare = data.get("declare")
    if declare == "instant_win":
        notes.append(_("instant win (itsū)"))
    elif isinstance(declare, str):
        notes.append(DECLARES.get(declare) or _("declared %(what)s") % {"what": declare})
    joker_as = data.get("as")
    if isinstance(joker_as, Mapping):
        joker_as = joker_as.get("JK")
    if _names(joker_as):
        notes.append(_("joker as %(cards)s") % {"cards": _labels(_names(joker_as))})
    played = tuple(cards(_names(data.get("play"))))
    words, tail = _around_cards(_("%(who)s played %(cards)s"), who=who)
    return LogLine(seq, words, played, tail, (*notes, *undone_note))


# Titles by finishing place (they drive the next game's card exchange).
TITLE_LABELS = Labels(
    {
        "daifugo": gettext_lazy("Grand millionaire"),
        "fugo": gettext_lazy("Millionaire"),
        "heimin": gettext_lazy("Commoner"),
        "hinmin": gettext_lazy("Poor"),
        "daihinmin": gettext_lazy("Extreme poor"),
    }
)


def title_label(detail: Mapping[str, object]) -> str:
    """The 大富豪 title a result's `detail` gives, in game words ("" when it has none: a
    3-player game, or another family's result)."""
    title = str(detail.get("title") or "")
    return TITLE_LABELS.get(title, title)


# A game's status on the public live page (the same words as `Game.Status`).
GAME_STATUS_LABELS = Labels(
    {
        "in_play": gettext_lazy("In play"),
        "finished": gettext_lazy("Finished"),
        "confirmed": gettext_lazy("Confirmed"),
        "void": gettext_lazy("Void"),
    }
)


def event_sentence(event: Mapping[str, object], names: Mapping[int, str]) -> str:
    """One public event (`games.engine.events`, public form) in words for spectators, e.g.
    "Sato played ♠8 ♥8" / 「佐藤さんが♠8 ♥8を出しました」 or "Sato: eight-cut" /
    「佐藤さんが8切り」. Cards an event does not show (an exchange give during play) are told
    as a count."""
    seat = event.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        name = names.get(seat) or seat_name(seat)
    else:
        name = _("A player")
    who = {"name": name}
    kind = str(event.get("kind", ""))
    shown = _labels(_names(event.get("cards")))
    place = event.get("place")
    if kind == "played":
        return _("%(name)s played %(cards)s") % {**who, "cards": shown}
    if kind == "exchange_given":
        if shown:
            return _("%(name)s gave %(cards)s in the card exchange") % {**who, "cards": shown}
        count = event.get("count", 0)
        count = count if isinstance(count, int) else 0
        return ngettext(
            "%(name)s gave %(count)s card in the card exchange",
            "%(name)s gave %(count)s cards in the card exchange",
            count,
        ) % {**who, "count": count}
    if kind == "revolution":
        if event.get("on"):
            return _("%(name)s: revolution!") % who
        return _("%(name)s: counter-revolution!") % who
    if kind == "lock_started":
        suits = event.get("suits")
        locked = (
            " ".join(SUITS[s][0] for s in suits if s in SUITS) if isinstance(suits, list) else ""
        )
        if locked:
            return _("Lock: %(suits)s") % {"suits": locked}
        return pgettext("game event", "Lock")
    if kind == "eleven_back":
        if event.get("order") == "down":
            return _("%(name)s: 11-back (card order reversed)") % who
        return _("%(name)s: 11-back (card order back to normal)") % who
    if kind in ("finished", "foul_finish"):
        if isinstance(place, int) and not isinstance(place, bool):
            at = {**who, "place": place}
            if kind == "finished":
                return _("%(name)s went out — place %(place)s") % at
            return _("%(name)s: foul finish — place %(place)s") % at
        if kind == "finished":
            return _("%(name)s went out") % who
        return _("%(name)s: foul finish") % who
    if kind == "passed":
        return _("%(name)s passed") % who
    if kind == "eight_cut":
        return _("%(name)s: eight-cut") % who
    if kind == "spade_three_return":
        return _("%(name)s: spade-3 return") % who
    if kind == "heart_three_return":
        return _("%(name)s: heart-3 return") % who
    if kind == "instant_win":
        return _("%(name)s: instant win (itsū)") % who
    if kind == "miyako_ochi":
        return _("Miyako-ochi: %(name)s") % who
    if kind == "misplay":
        return _("%(name)s: misplay (punrī), face up: %(cards)s") % {**who, "cards": shown}
    if kind == "stalemate":
        return _("Stalemate (sennichite): the places left are drawn")
    simple = {
        "trick_cleared": _("Trick cleared"),
        "passes_reset": _("Passes reset"),
        "number_lock_started": _("Number lock"),
        "exchange_done": _("Card exchange done"),
        "game_over": _("Game over"),
    }
    return simple.get(kind, kind.replace("_", " "))


def move_sentence(move: Mapping[str, object], names: Mapping[int, str]) -> str:
    """A public log row (`games.public.public_move`) as one line of sentences."""
    events = move.get("events")
    if isinstance(events, list) and events:
        return " · ".join(event_sentence(e, names) for e in events if isinstance(e, Mapping))
    reason = move.get("reason")
    if move.get("kind") == "undo":
        if reason:
            return _("Undo: %(reason)s") % {"reason": reason}
        return pgettext("game log", "Undo")
    if move.get("kind") == "decision":
        return _("Undo request decided")
    return str(move.get("kind", ""))
