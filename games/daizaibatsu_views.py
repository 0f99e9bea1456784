"""The public live page of a 大財閥 (Daizaibatsu) table: what `observe(state, None)` shows and
nothing else — whose turn, the direction of play, the table, revolution and 11-back, the lock,
the 山札's size and renewals, each seat's card count, the hands opened by a 6 (rule 6: face up
for good, shown with their cards) and the decisions under way. A hidden hand, the pile's order
and the cards a hidden hand gave, discarded, drew or lost never appear before the end."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games import daizaibatsu_display as words
from games.display import GAME_STATUS_LABELS, SUITS, cards, move_sentence, title_label


def seat_rows(view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Each seat as the public sees it: count, turn, out or passed, open hand's cards."""
    counts: list[int] = view.get("counts", [])
    open_hands: dict[str, list[str]] = view.get("open_hands", {})
    out: list[int] = view.get("out", [])
    rows = []
    for seat, count in enumerate(counts):
        shown = open_hands.get(str(seat))
        rows.append(
            {
                "seat": seat + 1,
                "name": names.get(seat, ""),
                "count": count,
                "is_turn": view.get("turn") == seat,
                "out_place": out.index(seat) + 1 if seat in out else None,
                "passed": seat in view.get("passed", []),
                "open": shown is not None,
                "cards": cards(shown) if shown is not None else None,
            }
        )
    return rows


def table_state(view: dict[str, Any], seats: int) -> dict[str, Any]:
    """The table's public state for a template (the console shows the same block)."""
    table = view.get("table")
    lock = view.get("lock") or []
    return {
        "trick": cards(table["cards"]) if table else [],
        "trick_seat": table["seat"] + 1 if table else None,
        "direction": words.direction_label(int(view.get("direction", 1)), seats),
        "reversed_direction": view.get("direction", 1) < 0,
        "revolution": bool(view.get("revolution")),
        "revolution_pending": int(view.get("revolution_pending") or 0),
        "eleven_back": bool(view.get("eleven_back")),
        "lock": " ".join(SUITS[s][0] for s in lock if s in SUITS),
        "pile": view.get("pile", 0),
        "renewals": view.get("renewals", 0),
        "discarded": view.get("discarded", 0),
        "destroyed": view.get("destroyed", 0),
        "forced_end": bool(view.get("forced_end")),
    }


def live_fragment(table_id: int, version: str, data: dict[str, Any]) -> str:
    game = data["game"]
    view = game["state"] or {}
    names = {s["seat"]: s["player"] for s in data["seats"]}
    seats = len(view.get("counts", [])) or len(data["seats"])
    pending = [
        words.decision_sentence(p["kind"], p["seat"], names, p.get("count", 0))
        for p in view.get("pending", [])
    ]
    results = [
        r | {"name": names.get(r["seat"], ""), "title_label": title_label(r.get("detail") or {})}
        for r in game.get("results") or []
    ]
    ctx = {
        "table_id": table_id,
        "version": version,
        "game": game,
        "status_label": GAME_STATUS_LABELS.get(game.get("status", ""), ""),
        "seating": [{**s, "seat": s["seat"] + 1} for s in data["seats"]],
        "seats": seat_rows(view, names) if view else [],
        "state": table_state(view, seats) if view else None,
        "pending": pending,
        "results": results,
        "events": [{"seq": m["seq"], "words": move_sentence(m, names)} for m in game["recent"]],
    }
    return render_to_string("games/live.html#live-daizaibatsu", ctx)
