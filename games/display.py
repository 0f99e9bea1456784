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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from django_stubs_ext import StrOrPromise

from games import offline


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


SUITS = offline.SUITS
# An 11-back call (イレブンバック) and how a set of cards was declared, as log notes.
CALLS = Labels({"up": gettext_lazy("11-back call: up"), "down": gettext_lazy("11-back call: down")})
DECLARES = Labels({"set": gettext_lazy("read as a set"), "stairs": gettext_lazy("read as stairs")})

_CARDS = "\x00"  # where a sentence's cards stand, to split it around them


typed_codes = offline.typed_codes
card = offline.card_face


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
    cards: tuple[dict[str, Any], ...] = ()
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


def card_list(value: object) -> list[dict[str, str]]:
    """A stored list of card codes for templates (anything else: no cards)."""
    return cards(_names(value))


def around_cards(sentence: str, **values: object) -> tuple[str, str]:
    """`_around_cards` for the families' own log lines (大財閥's decisions)."""
    return _around_cards(sentence, **values)


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


def time_fault_sentence(fault: Any) -> str:
    """A time fault (`games.models.TimeFault`) as the log tells it."""
    seat = seat_name(fault.seat)
    seconds = f"{fault.think_ms / 1000:.1f}"
    if fault.rule == "forced_pass":
        return _("Time fault: %(who)s, %(seconds)s s — forced pass") % {
            "who": seat,
            "seconds": seconds,
        }
    if fault.rule == "penalty":
        points = fault.penalty.points if fault.penalty is not None else 0
        return _("Time fault: %(who)s, %(seconds)s s — %(points)s point(s) deducted") % {
            "who": seat,
            "seconds": seconds,
            "points": points,
        }
    if fault.refused_code:
        return _(
            "Time fault: %(who)s, %(seconds)s s — warning (a pass was not possible: %(code)s)"
        ) % {
            "who": seat,
            "seconds": seconds,
            "code": fault.refused_code,
        }
    return _("Time fault: %(who)s, %(seconds)s s — warning") % {"who": seat, "seconds": seconds}


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
    from games import daizaibatsu_display  # the family's words build on this module's

    if kind in daizaibatsu_display.EVENT_KINDS:
        return daizaibatsu_display.event_sentence(event, names)
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
        if "on" in event:  # 大財閥: compulsory, on until the trick flows
            return daizaibatsu_display.eleven_back_sentence(bool(event["on"]))
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
    said: list[str] = []
    payload = move.get("move")
    choice = payload.get("choice") if isinstance(payload, Mapping) else None
    if isinstance(choice, Mapping) and isinstance(payload, Mapping):
        # 大財閥: a 2's or 9's target is named aloud; no event says so.
        from games import daizaibatsu_display

        said.append(
            daizaibatsu_display.named_sentence(payload.get("seat"), choice.get("target"), names)
        )
    events = move.get("events")
    if isinstance(events, list) and events:
        said += [event_sentence(e, names) for e in events if isinstance(e, Mapping)]
    if said:
        return " · ".join(said)
    reason = move.get("reason")
    if move.get("kind") == "undo":
        # `approved`: None while the head referee has not decided, False once refused.
        if move.get("approved", True) is not True:
            if reason:
                return _("Undo asked of the head referee: %(reason)s") % {"reason": reason}
            return _("Undo asked of the head referee")
        if reason:
            return _("Undo: %(reason)s") % {"reason": reason}
        return pgettext("game log", "Undo")
    if move.get("kind") == "decision":
        request = {"seq": move.get("ref_seq", "?")}
        if move.get("approved"):
            return _("Undo request %(seq)s approved") % request
        return _("Undo request %(seq)s refused") % request
    return str(move.get("kind", ""))


# --- 掼蛋 (Guandan) ------------------------------------------------------------------------
# The engine's Guandan cards are names such as "7H", "TS", "SJ" (小王), "BJ" (大王); two packs,
# so a hand may hold a card twice. What the console and the live page need of them is here,
# built on the engine's own helpers (`strength`, `wild_card`, `readings`), never a copy.

GD_JOKERS = Labels({"SJ": pgettext_lazy("card", "SJ"), "BJ": pgettext_lazy("card", "BJ")})

GD_KINDS = Labels(
    {
        "single": gettext_lazy("single"),
        "pair": gettext_lazy("pair"),
        "triple": gettext_lazy("triple"),
        "full_house": gettext_lazy("full house"),
        "straight": gettext_lazy("straight"),
        "tube": gettext_lazy("three pairs in a row"),
        "plate": gettext_lazy("two triples in a row"),
        "bomb": gettext_lazy("bomb"),
        "straight_flush": gettext_lazy("straight flush"),
        "joker_bomb": gettext_lazy("four jokers"),
    }
)
GD_BOMB_KINDS = frozenset({"bomb", "straight_flush", "joker_bomb"})

# Places in a hand as players call them: 头游, 二游, 三游, 末游.
GD_PLACES = Labels(
    {
        "1": gettext_lazy("first out (tóuyóu)"),
        "2": gettext_lazy("second out (èryóu)"),
        "3": gettext_lazy("third out (sānyóu)"),
        "4": gettext_lazy("last (mòyóu)"),
    }
)
# After a 1-2 finish the other pair never goes out: both share 3rd place in the results.
GD_BOTH_DOWN = gettext_lazy("not out (shuāngxià)")


def gd_place_label(place: int, places: Iterable[int]) -> str:
    """A hand's place as players call it; a place 3 shared by two players (the pair left
    holding cards after a 1-2 finish) is 双下, neither of them went out third."""
    if place == 3 and list(places).count(3) > 1:
        return str(GD_BOTH_DOWN)
    return GD_PLACES.get(str(place), "")


def gd_rank_name(strength_or_value: int, level: int) -> str:
    """A rank as printed on cards: a level-order strength (15: the level rank, 16/17: the
    jokers) or a run's natural value (1: an A played low)."""
    from games.engine.guandan import format_level

    if strength_or_value == 15:
        return format_level(level)
    if strength_or_value == 16:
        return GD_JOKERS["SJ"]
    if strength_or_value == 17:
        return GD_JOKERS["BJ"]
    if strength_or_value == 1:
        return "A"
    return format_level(strength_or_value)


def gd_card(code: str, level: int | None = None) -> dict[str, Any]:
    """A Guandan card for templates: code (the form value), label, colour; with the hand's
    `level`, whether it is a level card and whether it is the heart level card (逢人配, wild)."""
    from games.engine.guandan import format_level

    if code in ("SJ", "BJ"):
        return {
            "code": code,
            "label": GD_JOKERS[code],
            "colour": "joker big" if code == "BJ" else "joker",
            "level": False,
            "wild": False,
        }
    rank = "10" if code[0] == "T" else code[0]
    symbol, colour = SUITS[code[1]]
    is_level = level is not None and rank == format_level(level)
    return {
        "code": code,
        "label": f"{symbol}{rank}",
        "colour": colour,
        "level": is_level,
        "wild": is_level and code[1] == "H",
    }


def gd_cards(codes: list[str], level: int | None = None) -> list[dict[str, Any]]:
    return [gd_card(c, level) for c in codes]


def gd_hand_by_rank(
    codes: list[str], level: int, bombs: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """A hand laid out by rank in the level's order — 2 … A with the level rank moved between
    A and the jokers, then 小王 and 大王 — each rank with its cards (a card held twice shows
    twice) and their count; `bombs`: the strengths a bomb can be played of (炸弹 badge)."""
    from games.engine.guandan import strength
    from games.engine.multideck import parse_multi_card

    suit_order = "SHDC"
    groups: dict[int, list[str]] = {}
    for code in codes:
        groups.setdefault(strength(parse_multi_card(code), level), []).append(code)
    laid_out = []
    for key in sorted(groups):
        held = sorted(groups[key], key=lambda c: suit_order.find(c[1]) if c[1] in SUITS else 0)
        laid_out.append(
            {
                "rank": gd_rank_name(key, level),
                "strength": key,
                "count": len(held),
                "is_level": key == 15,
                "bomb": key in bombs,
                "cards": gd_cards(held, level),
            }
        )
    return laid_out


def gd_reading(kind: str, key: int, size: int, level: int) -> str:
    """A combination in words: "straight 5–9", "bomb of four 7s" / 「7の4枚炸弾」."""
    from games.engine.guandan import format_level

    rank = gd_rank_name(key, level)
    runs = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}
    if kind in runs:
        # A run's key is the natural value of its lowest card (1: an A played low).
        low = "A" if key == 1 else format_level(key)
        high = format_level(key + runs[kind] - 1)
        span = {"low": low, "high": high}
        if kind == "straight":
            return _("straight %(low)s–%(high)s") % span
        if kind == "straight_flush":
            return _("straight flush %(low)s–%(high)s") % span
        if kind == "tube":
            return _("three pairs %(low)s–%(high)s") % span
        return _("two triples %(low)s–%(high)s") % span
    if kind == "single":
        return _("single %(rank)s") % {"rank": rank}
    if kind == "pair":
        return _("pair of %(rank)s") % {"rank": rank}
    if kind == "triple":
        return _("three %(rank)s") % {"rank": rank}
    if kind == "full_house":
        return _("full house, three %(rank)s") % {"rank": rank}
    if kind == "bomb":
        return _("bomb of %(count)s × %(rank)s") % {"count": size, "rank": rank}
    if kind == "joker_bomb":
        return GD_KINDS["joker_bomb"]
    return GD_KINDS.get(kind, kind)


def gd_wilds_note(targets: list[str]) -> str:
    """What the wilds of a play stand for: "wild (逢人配) as ♦6"."""
    if not targets:
        return ""
    return _("wild (fengrenpei) as %(cards)s") % {
        "cards": " ".join(str(gd_card(c)["label"]) for c in targets)
    }


def gd_log_line(
    seq: int, kind: str, payload: object, *, undone: bool = False, reason: str = ""
) -> LogLine:
    """A Guandan log row in words: a play (with its wild declaration), a pass, a tribute (进贡),
    a return (还贡), first place taking one of two equal tributes."""
    if kind != "action":
        return log_line(seq, kind, payload, undone=undone, reason=reason)
    data: Mapping[str, object] = payload if isinstance(payload, Mapping) else {}
    seat = data.get("seat")
    who = seat_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else _("A seat")
    notes = (_("undone"),) if undone else ()
    if data.get("pass") is True:
        return LogLine(seq, _("%(who)s passed") % {"who": who}, notes=notes)
    if "take" in data:
        source = data["take"]
        source_name = seat_name(source) if isinstance(source, int) else "?"
        words = _("%(who)s took the tribute of %(payer)s") % {"who": who, "payer": source_name}
        return LogLine(seq, words, notes=notes)
    for key, sentence in (
        ("tribute", _("%(who)s paid %(cards)s as tribute (jìngòng)")),
        ("return", _("%(who)s gave back %(cards)s (huángòng)")),
    ):
        if key in data:
            words, tail = _around_cards(sentence, who=who)
            return LogLine(seq, words, tuple(_gd_names(data[key])), tail, notes)
    played = tuple(_gd_names(data.get("play")))
    targets = data.get("as")
    wild_note = (
        gd_wilds_note([t for t in targets if isinstance(t, str)])
        if isinstance(targets, list)
        else ""
    )
    words, tail = _around_cards(_("%(who)s played %(cards)s"), who=who)
    return LogLine(seq, words, played, tail, (*((wild_note,) if wild_note else ()), *notes))


def _gd_names(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    codes = [
        v
        for v in value
        if isinstance(v, str) and (v in ("SJ", "BJ") or (len(v) == 2 and v[1] in SUITS))
    ]
    return gd_cards(codes)


def gd_event_sentence(event: Mapping[str, object], names: Mapping[int, str]) -> str:
    """One public Guandan event in words for spectators (a returned card is never named while
    the hand is on: `games.public` leaves it out)."""
    seat = event.get("seat")
    name = (
        names.get(seat) or seat_name(seat)
        if isinstance(seat, int) and not isinstance(seat, bool)
        else _("A player")
    )
    who = {"name": name}
    kind = str(event.get("kind", ""))
    from games import daizaibatsu_display  # the family's words build on this module's

    if kind in daizaibatsu_display.EVENT_KINDS:
        return daizaibatsu_display.event_sentence(event, names)
    shown = " ".join(str(c["label"]) for c in _gd_names(event.get("cards")))
    if kind == "played":
        combination = str(event.get("combination", ""))
        words = _("%(name)s played %(cards)s") % {**who, "cards": shown}
        targets = event.get("as")
        details = [GD_KINDS.get(combination, "")] if combination else []
        if isinstance(targets, list):
            details.append(gd_wilds_note([t for t in targets if isinstance(t, str)]))
        if any(details):
            words += " (" + " · ".join(d for d in details if d) + ")"
        if combination in GD_BOMB_KINDS:
            words += " — " + _("bomb (zhàdàn)!")
        return words
    if kind == "passed":
        return _("%(name)s passed") % who
    if kind == "trick_cleared":
        return _("Trick cleared")
    if kind == "jiefeng":
        return _("%(name)s takes the lead from their partner (jiēfēng)") % who
    if kind == "finished":
        place = event.get("place")
        label = GD_PLACES.get(str(place), "") if isinstance(place, int) else ""
        return _("%(name)s went out — %(place)s") % {**who, "place": label}
    if kind == "game_over":
        return _("Hand over")
    if kind == "tribute_paid":
        return _("%(name)s paid %(cards)s as tribute (jìngòng)") % {**who, "cards": shown}
    if kind == "tribute_received":
        return _("%(name)s received the tribute %(cards)s") % {**who, "cards": shown}
    if kind == "tribute_returned":
        if shown:
            return _("%(name)s gave back %(cards)s (huángòng)") % {**who, "cards": shown}
        return _("%(name)s gave a card back (huángòng)") % who
    if kind == "tribute_done":
        return _("Tribute done: %(name)s leads") % who
    return kind.replace("_", " ")


def gd_move_sentence(move: Mapping[str, object], names: Mapping[int, str]) -> str:
    events = move.get("events")
    if isinstance(events, list) and events:
        return " · ".join(gd_event_sentence(e, names) for e in events if isinstance(e, Mapping))
    return move_sentence(move, names)


def gd_match(record: object) -> dict[str, Any]:
    """What a hand's stored `Game.match` says, for display: both teams' levels (names, "2" …
    "A"), failed attempts at A, the declaring team (None: the match's first hand, where
    nobody declares and 2 is played) and the level played."""
    from games.engine.guandan import format_level, match_from_record

    match = match_from_record(record)
    return {
        "levels": [format_level(v) for v in match.levels],
        "failures": list(match.failures),
        "declarer": match.declarer,
        "level": format_level(match.level),
    }


def gd_hand_summary(
    teams: list[dict[str, Any]], results: Mapping[int, object]
) -> dict[str, Any] | None:
    """A finished hand's effect on the match, from its results' `detail`: the finish (1-2,
    1-3, 1-4), each team's level before and after (the next hand's levels), its gain, a match
    won at A, a failed attempt at A, a team sent back to 2."""
    if not results:
        return None
    by_team: dict[int, Mapping[str, object]] = {}
    finish = ""
    for result in results.values():
        # A `GameResult` row, or a result as `games.public` serialises it.
        fields = result if isinstance(result, Mapping) else vars(result)
        detail = fields.get("detail") or {}
        team = fields.get("team")
        if not isinstance(team, int):
            team = int(fields.get("seat") or 0) % 2
        by_team.setdefault(team, detail)
        finish = finish or str(detail.get("finish") or "")
    rows = []
    for team in teams:
        index = team["index"]
        detail = by_team.get(index if isinstance(index, int) else 0, {})
        rows.append(
            {
                "name": team["name"],
                "before": team.get("level"),
                "after": detail.get("team_level") or team.get("level"),
                "gain": detail.get("level_gain") or 0,
                "match_won": bool(detail.get("match_won")),
                "failed_at_a": bool(detail.get("failed_at_a")),
                "demoted": bool(detail.get("demoted")),
            }
        )
    return {"finish": finish, "teams": rows}


# What the console announces of the latest move (the rest is in the log).
GD_ANNOUNCED = frozenset({"jiefeng", "finished", "game_over", "tribute_done", "tribute_received"})


def gd_announcements(
    events: Sequence[Mapping[str, object]], names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """The latest move's events worth announcing: a bomb (炸弹), 接风, a player going out,
    the hand over, the tribute settled."""
    found = []
    for event in events:
        kind = event.get("kind")
        bomb = kind == "played" and event.get("combination") in GD_BOMB_KINDS
        if bomb or kind in GD_ANNOUNCED:
            found.append({"kind": kind, "bomb": bomb, "words": gd_event_sentence(event, names)})
    return found
