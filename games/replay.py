"""A finished game, position by position, for the public replay viewer (issue #20).

Read-only: the position after N effective actions is rebuilt from the game's set-up through the
family's `apply`, once per request, and told through the same public rules as the live page
(`games.public`): before the round's seed is revealed the public sees what `observe(state,
None)` shows at that move — counts, the table, open hands — and the log without the exchange's
and 大財閥's hidden cards; once revealed, every seat's hand at that move is shown.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import daizaibatsu_display
from games.daizaibatsu_views import table_state
from games.display import (
    GAME_STATUS_LABELS,
    GD_BOMB_KINDS,
    GD_KINDS,
    GD_PLACES,
    SUITS,
    cards,
    gd_cards,
    gd_move_sentence,
    move_sentence,
    title_label,
)
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU
from games.engine.guandan import FAMILY as GUANDAN
from games.engine.guandan import parse_level, team_of
from games.models import Game
from games.public import public_move, seat_names
from games.state import effective_actions, family_for, rebuild

REPLAYABLE = (Game.Status.FINISHED, Game.Status.CONFIRMED)


def clamp_move(value: object, total: int) -> int:
    """The position asked for (`?move=N`), kept within the game: 0 (the deal) … `total`."""
    try:
        number = int(str(value))
    except ValueError:
        return 0
    return max(0, min(number, total))


def replay_position(game: Game, asked: object) -> dict[str, Any]:
    """Everything the viewer shows of `game` at the move `asked` for (`clamp_move`)."""
    family = family_for(game)
    rows = effective_actions(game.moves.order_by("seq"))
    number = clamp_move(asked, len(rows))
    state = rebuild(game, rows[:number])
    revealed = game.table.round.is_revealed
    view = family.observe(state, None)
    # Once revealed, each seat's hand as that seat saw it; before, only what `observe` shows.
    own = [family.observe(state, seat) for seat in range(game.seats)] if revealed else None
    seated = seat_names(game.table_id, game)
    names = {s["seat"]: s["player"] for s in seated}
    guandan = family.name == GUANDAN
    sentence = gd_move_sentence if guandan else move_sentence
    # The exchange's and 大財閥's hidden cards stay counts until the seed is revealed.
    moves = [
        {"number": i, "words": sentence(public_move(row, revealed), names)}
        for i, row in enumerate(rows, start=1)
    ]
    position: dict[str, Any] = {
        "family": family.name,
        "number": number,
        "total": len(rows),
        "revealed": revealed,
        "moves": moves,
        "words": moves[number - 1]["words"] if number else "",
        "turn_name": _turn_name(view, names),
        "status_label": GAME_STATUS_LABELS.get(game.status, ""),
    }
    if guandan:
        position |= _guandan(view, own, seated)
    elif family.name == DAIZAIBATSU:
        position |= _daizaibatsu(view, own, seated, game.seats)
    else:
        position |= _daifugo(view, own, seated)
    return position


def _turn_name(view: dict[str, Any], names: dict[int, str]) -> str:
    turn = view.get("turn")
    return names.get(turn, _("Seat %(number)s") % {"number": turn + 1}) if turn is not None else ""


def _trick_by(view: dict[str, Any], names: dict[int, str]) -> str:
    table = view.get("table")
    return names.get(table["seat"], "") if table else ""


def _lock(view: dict[str, Any]) -> str:
    return " ".join(SUITS[s][0] for s in view.get("lock") or [] if s in SUITS)


def _daifugo(
    view: dict[str, Any], own: list[dict[str, Any]] | None, seated: list[dict[str, Any]]
) -> dict[str, Any]:
    names = {s["seat"]: s["player"] for s in seated}
    placed = {p["seat"]: p for p in view.get("placings") or [] if p.get("place")}
    seats = []
    for s in seated:
        i = s["seat"]
        hand = own[i]["hands"][i] if own is not None else view["hands"][i]
        place = placed.get(i)
        seats.append(
            {
                "seat": i + 1,
                "name": s["player"],
                "count": view["counts"][i],
                "cards": cards(hand) if hand is not None else None,
                "exposed": cards(view.get("exposed", {}).get(str(i), [])),
                "is_turn": view.get("turn") == i,
                "passed": i in view.get("passed", []),
                "place": place["place"] if place else None,
                "title_label": title_label(place) if place else "",
            }
        )
    table = view.get("table")
    return {
        "trick": cards(table["cards"]) if table else [],
        "trick_name": _trick_by(view, names),
        "revolution": bool(view.get("revolution")),
        "eleven_back": view.get("eleven_back") == "down",
        "lock": _lock(view),
        "seats": seats,
        "placings": sorted(
            (
                {"name": names.get(p["seat"], ""), "title_label": title_label(p), **p}
                for p in placed.values()
            ),
            key=lambda p: p["place"],
        ),
    }


def _guandan(
    view: dict[str, Any], own: list[dict[str, Any]] | None, seated: list[dict[str, Any]]
) -> dict[str, Any]:
    names = {s["seat"]: s["player"] for s in seated}
    level_name = str(view.get("level") or "2")
    level = parse_level(level_name)
    out = list(view.get("out") or [])
    levels = view.get("levels") or []
    teams = [
        {
            "label": (_("Team A"), _("Team B"))[index],
            "members": " · ".join(s["player"] for s in seated if team_of(s["seat"]) == index),
            "level": levels[index] if index < len(levels) else "",
            "declares": view.get("declarer") == index,
        }
        for index in (0, 1)
    ]
    seats = []
    for s in seated:
        i = s["seat"]
        hand = own[i].get("hand") if own is not None else None
        counts = view.get("counts") or []
        seats.append(
            {
                "seat": i + 1,
                "name": s["player"],
                "team": team_of(i),
                "count": len(hand) if hand is not None else counts[i],
                "cards": gd_cards(hand, level) if hand is not None else None,
                "is_turn": view.get("turn") == i,
                "passed": i in (view.get("passed") or []),
                "place": out.index(i) + 1 if i in out else None,
                "title_label": GD_PLACES.get(str(out.index(i) + 1), "") if i in out else "",
            }
        )
    table = view.get("table")
    combination = str(table["combination"]) if table else ""
    return {
        "level_name": level_name,
        "teams": teams,
        "trick": gd_cards(table["cards"], level) if table else [],
        "trick_name": _trick_by(view, names),
        "trick_kind": GD_KINDS.get(combination, combination),
        "trick_bomb": combination in GD_BOMB_KINDS,
        "tribute": view.get("phase") == "tribute",
        "seats": seats,
        "placings": [
            {"name": names.get(seat, ""), "place": place, "title_label": GD_PLACES.get(str(place))}
            for place, seat in enumerate(out, start=1)
        ],
    }


def _daizaibatsu(
    view: dict[str, Any], own: list[dict[str, Any]] | None, seated: list[dict[str, Any]], size: int
) -> dict[str, Any]:
    names = {s["seat"]: s["player"] for s in seated}
    open_hands: dict[str, list[str]] = view.get("open_hands", {})
    out: list[int] = list(view.get("out") or [])
    seats = []
    for s in seated:
        i = s["seat"]
        hand = own[i].get("hand") if own is not None else open_hands.get(str(i))
        seats.append(
            {
                "seat": i + 1,
                "name": s["player"],
                "count": view["counts"][i],
                "cards": cards(hand) if hand is not None else None,
                "open": str(i) in open_hands,
                "is_turn": view.get("turn") == i,
                "passed": i in view.get("passed", []),
                "place": out.index(i) + 1 if i in out else None,
                "title_label": "",
            }
        )
    return {
        "dz_state": table_state(view, size),
        "trick_name": _trick_by(view, names),
        "pending": [
            daizaibatsu_display.decision_sentence(p["kind"], p["seat"], names, p.get("count", 0))
            for p in view.get("pending", [])
        ],
        "seats": seats,
        "placings": [
            {"name": names.get(seat, ""), "place": place, "title_label": ""}
            for place, seat in enumerate(out, start=1)
        ],
    }
