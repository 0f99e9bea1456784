"""大財閥 (Daizaibatsu) in words, for the referee console and the public live page: its events
("Sato drew 4" / 「佐藤さんが4枚引きました」), the decisions its effects ask for ("Seat 2 (Sato):
choose who draws 4"), the direction of play and the table's state. Game words stay Japanese
(砂嵐, 8切り, 11バック, 革命, 倍返し, 上がり殺し, 山札, ダウンナンバー).

Everything here reads what it is given: the public view (`observe(state, None)` and the public
log) on the live page, the referee's own state in the console. Cards an event does not carry
(hidden by `games.public`) are told as a count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import display
from games.display import LogLine

# Public event kinds of the family this module tells (others: `games.display.event_sentence`).
EVENT_KINDS = frozenset(
    {
        "drew",
        "gave",
        "discarded",
        "destroyed",
        "took_back",
        "hand_opened",
        "reversed",
        "sandstorm",
        "spade_three_cut",
        "down_number",
        "double_back",
        "pile_renewed",
        "forced_end",
        "skipped",
        "counter_revolution",
        "revolution_pending",
        "returned_to_play",
        "finish_killed",
    }
)


def _count(event: Mapping[str, object]) -> int:
    """How many cards an event moved: its `count`, else its cards (shown after the end)."""
    count = event.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    cards = event.get("cards")
    return len(cards) if isinstance(cards, list) else 0


def _who(seat: object, names: Mapping[int, str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return names.get(seat) or _("Seat %(number)s") % {"number": seat + 1}
    return _("A player")


def event_sentence(event: Mapping[str, object], names: Mapping[int, str]) -> str:
    """One public 大財閥 event of :data:`EVENT_KINDS` in words."""
    kind = str(event.get("kind", ""))
    name = _who(event.get("seat"), names)
    to = _who(event.get("to"), names)
    count = _count(event)
    if kind == "drew":
        return ngettext("%(name)s drew %(count)s card", "%(name)s drew %(count)s cards", count) % {
            "name": name,
            "count": count,
        }
    if kind == "gave":
        return ngettext(
            "%(name)s gave %(count)s card to %(to)s",
            "%(name)s gave %(count)s cards to %(to)s",
            count,
        ) % {"name": name, "count": count, "to": to}
    if kind == "discarded":
        return ngettext(
            "%(name)s discarded %(count)s card", "%(name)s discarded %(count)s cards", count
        ) % {"name": name, "count": count}
    if kind == "destroyed":
        return ngettext(
            "%(name)s destroyed %(count)s card of %(to)s",
            "%(name)s destroyed %(count)s cards of %(to)s",
            count,
        ) % {"name": name, "count": count, "to": to}
    if kind == "took_back":
        return ngettext(
            "%(name)s took back %(count)s card", "%(name)s took back %(count)s cards", count
        ) % {"name": name, "count": count}
    if kind == "hand_opened":
        seats = event.get("seats")
        opened = ", ".join(_who(s, names) for s in seats) if isinstance(seats, list) else ""
        return _("Hand opened (face up for good): %(names)s") % {"names": opened}
    if kind == "reversed":
        return _("%(name)s: direction of play reversed") % {"name": name}
    if kind == "sandstorm":
        return _("%(name)s: 砂嵐 (sandstorm)") % {"name": name}
    if kind == "spade_three_cut":
        return _("%(name)s: ♠3 cuts the joker") % {"name": name}
    if kind == "down_number":
        return _("%(name)s: ダウンナンバー (down number)") % {"name": name}
    if kind == "double_back":
        return _("%(name)s: 倍返し (joker double-back) to %(to)s") % {"name": name, "to": to}
    if kind == "pile_renewed":
        return _("山札 renewed: %(count)s cards (renewal %(renewal)s)") % {
            "count": count,
            "renewal": event.get("renewal", ""),
        }
    if kind == "forced_end":
        return _("The 山札 ran out when %(name)s had to draw: the game ends") % {"name": name}
    if kind == "skipped":
        seats = event.get("seats")
        skipped = ", ".join(_who(s, names) for s in seats) if isinstance(seats, list) else ""
        return _("%(name)s skips %(names)s") % {"name": name, "names": skipped}
    if kind == "counter_revolution":
        return _("%(name)s: 革命返し (counter-revolution)!") % {"name": name}
    if kind == "revolution_pending":
        return _("%(name)s: 革命 (revolution) once the others pass") % {"name": name}
    if kind == "returned_to_play":
        return _("%(name)s is back in play") % {"name": name}
    if kind == "finish_killed":
        return _("%(name)s: 上がり殺し (finish kill) on %(to)s") % {"name": name, "to": to}
    return kind.replace("_", " ")


def named_sentence(seat: object, target: object, names: Mapping[int, str]) -> str:
    """A 2's or 9's player naming who draws, for the public log."""
    return _("%(name)s named %(target)s to draw") % {
        "name": _who(seat, names),
        "target": _who(target, names),
    }


def eleven_back_sentence(on: bool) -> str:
    return _("11バック (11-back) until the trick flows") if on else _("11バック (11-back) ends")


def decision_sentence(
    kind: str, seat: int, names: Mapping[int, str], count: int = 0, to: int | None = None
) -> str:
    """A decision owed, as the console and the live page ask it: "Seat 2 (Sato): choose who
    draws 4". `count`: the cards it moves (a 2's or 9's target: how many the target draws;
    0 when the public view does not say)."""
    who = _("Seat %(number)s (%(name)s)") % {"number": seat + 1, "name": names.get(seat, "")}
    other = _who(to, names) if to is not None else ""
    values = {"who": who, "count": count, "to": other}
    if kind == "target":
        if count:
            return _("%(who)s: choose who draws %(count)s") % values
        return _("%(who)s: choose who draws") % values
    if kind == "give":
        return (
            ngettext(
                "%(who)s: choose %(count)s card to give to %(to)s",
                "%(who)s: choose %(count)s cards to give to %(to)s",
                count,
            )
            % values
        )
    if kind == "discard":
        return (
            ngettext(
                "%(who)s: choose %(count)s card to discard",
                "%(who)s: choose %(count)s cards to discard",
                count,
            )
            % values
        )
    if kind == "destroy":
        return (
            ngettext(
                "%(who)s: choose %(count)s card of %(to)s to destroy",
                "%(who)s: choose %(count)s cards of %(to)s to destroy",
                count,
            )
            % values
        )
    if kind == "take":
        return (
            ngettext(
                "%(who)s: choose %(count)s card to take back",
                "%(who)s: choose %(count)s cards to take back",
                count,
            )
            % values
        )
    if kind == "double_back":
        return _("%(who)s: 倍返し (discard a joker) or accept the draw") % values
    if kind == "draw":
        return (
            ngettext(
                "%(who)s drew %(count)s card: name it",
                "%(who)s drew %(count)s cards: name them",
                count,
            )
            % values
        )
    return f"{who}: {kind}"


def direction_label(direction: int, seats: int) -> str:
    """The direction of play as an arrow over the seat numbers: ↻ 1 → 2 → 3 → 4."""
    order: Sequence[int] = range(1, seats + 1) if direction >= 0 else range(seats, 0, -1)
    arrow = "↻" if direction >= 0 else "↺"
    return f"{arrow} " + " → ".join(str(n) for n in order)


def log_line(
    seq: int, kind: str, payload: object, *, undone: bool = False, reason: str = ""
) -> LogLine:
    """A console log row of a 大財閥 game: its decisions in words, plays and passes as every
    family's (`games.display.log_line`). The console is the referee's: cards are shown."""
    data: Mapping[str, object] = payload if isinstance(payload, Mapping) else {}
    seat = data.get("seat")
    if kind != "action" or not isinstance(seat, int) or isinstance(seat, bool):
        return display.log_line(seq, kind, payload, undone=undone, reason=reason)
    who = display.seat_name(seat)
    notes = (_("undone"),) if undone else ()
    choice = data.get("choice")
    if isinstance(choice, Mapping) and isinstance(choice.get("target"), int):
        target = display.seat_name(int(choice["target"]))
        return LogLine(seq, _("%(who)s named %(target)s") % {"who": who, "target": target})
    if choice == "double_back":
        return LogLine(seq, _("%(who)s: 倍返し (joker double-back)") % {"who": who}, notes=notes)
    if choice == "accept":
        return LogLine(seq, _("%(who)s accepted the draw") % {"who": who}, notes=notes)
    sentences = {
        "give": _("%(who)s gave %(cards)s"),
        "discard": _("%(who)s discarded %(cards)s"),
        "destroy": _("%(who)s destroyed %(cards)s"),
        "take": _("%(who)s took back %(cards)s"),
        "drew": _("%(who)s drew %(cards)s"),
    }
    for key, sentence in sentences.items():
        if key in data:
            words, tail = display.around_cards(sentence, who=who)
            return LogLine(seq, words, tuple(display.card_list(data[key])), tail, notes)
    return display.log_line(seq, kind, payload, undone=undone, reason=reason)
