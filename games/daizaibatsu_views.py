"""The public live page of a 大財閥 (Daizaibatsu) table: what `observe(state, None)` shows and
nothing else — whose turn, the direction of play, the table, revolution and 11-back, the lock,
the 山札's size and renewals, each seat's card count, the hands opened by a 6 (rule 6: face up
for good, shown with their cards) and the decisions under way. A hidden hand, the pile's order
and the cards a hidden hand gave, discarded, drew or lost never appear before the end."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from config.language import in_active_language
from games import daizaibatsu_display as words
from games import services
from games.clock import console_clock_context
from games.display import (
    GAME_STATUS_LABELS,
    SUITS,
    card,
    cards,
    move_sentence,
    title_label,
    typed_codes,
)
from games.engine.daizaibatsu import PHASE_PLAY, State, observe, to_move
from games.engine.daizaibatsu_combos import card_name, names
from games.engine.daizaibatsu_rules import FAMILY
from games.engine.multideck import Cards
from games.models import Game, Move
from games.official_views import quick_outcome_choices
from games.seating import by_engine_seat
from games.state import family_for, rebuild
from tournaments.models import Seat, Table
from tournaments.permissions import is_head_referee
from tournaments.rulesets import check_ruleset


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
        "events": [
            {"seq": m["seq"], "words": move_sentence(m, names), "withdrawn": m["withdrawn"]}
            for m in game["recent"]
        ],
    }
    return render_to_string("games/live.html#live-daizaibatsu", ctx)


# --- the referee console ---------------------------------------------------------------------
# A 大財閥 game has its own console (`games/daizaibatsu_console.html`): the table's state, every
# seat's hand in a known deal, the decision the effects wait for, put as a question with one or
# two taps to answer it. The console's URLs are every family's; `games.views` asks `is_daizaibatsu`.

# How many of the 山札's next cards a known deal shows the referee (what the next draws give).
PILE_PREVIEW = 8

CARD_DECISIONS = ("give", "discard", "destroy", "take", "draw")


def is_daizaibatsu(table: Table, game: Game | None) -> bool:
    if game is not None:
        return family_for(game).name == FAMILY
    tournament = table.round.stage.tournament
    return check_ruleset(tournament.ruleset_id, tournament.ruleset_version).family == FAMILY


def _card_toggles(held: Cards | None) -> list[dict[str, Any]] | None:
    """A hand as toggles, one per card (two packs: a card may show twice); None: unknown."""
    if held is None:
        return None
    return [card(name) | {"index": i} for i, name in enumerate(names(held))]


def _decision_rows(state: State, seat_names: dict[int, str], known: bool) -> list[dict[str, Any]]:
    """Each decision owed now, as the console asks it: the question, and what answers it."""
    rows = []
    for owed in state.owed:
        row: dict[str, Any] = {
            "seat": owed.seat,
            "kind": owed.kind,
            "count": owed.size,
            "question": words.decision_sentence(
                owed.kind,
                owed.seat,
                seat_names,
                owed.amount if owed.kind == "target" else owed.size,
                owed.to if owed.to >= 0 else None,
            ),
            "action": "drew" if owed.kind == "draw" else owed.kind,
        }
        if owed.kind == "target":
            preview = state.pile[: owed.amount] if known and state.pile is not None else ()
            row["targets"] = [
                {"seat": s, "position": s + 1, "name": seat_names.get(s, "")}
                for s in range(state.seats)
                if s != owed.seat and s not in state.out
            ]
            row["draws"] = [card(card_name(c)) for c in preview]
        elif owed.kind in CARD_DECISIONS:
            pool: Cards | None
            if owed.kind == "take":
                pool = state.take_pool
            elif owed.kind == "destroy":
                pool = state.hands[owed.to]
            elif owed.kind == "draw":
                pool = None  # the pile is unknown: the referee names the cards drawn
            else:
                pool = state.hands[owed.seat]
            row["cards"] = _card_toggles(pool)
        rows.append(row)
    return rows


def _responders(state: State, seat_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Seats besides the one in turn that may play now, out of turn (the 8-cut window: 砂嵐,
    four 3s, a stairs revolution with a 3; 上がり殺し)."""
    if state.owed or state.phase != PHASE_PLAY:
        return []
    return [r for r in seat_rows if r["seat"] in to_move(state) and r["seat"] != state.turn]


def console_context(
    request: HttpRequest,
    table: Table,
    game: Game | None,
    error: Any = None,
    error_at: str = "",
) -> dict[str, Any]:
    # The parts every console shares (the next game, the moves' log); `games.views` imports
    # this module, so they are fetched when a console is built.
    from games.views import _moves_context, next_game_context

    tournament = table.round.stage.tournament
    seated = by_engine_seat(
        game, list(Seat.objects.filter(table=table).select_related("entry__player"))
    )
    seat_names = {i: s.entry.player.display_name for i, s in seated}
    ctx: dict[str, Any] = {
        "daizaibatsu": True,
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "game": game,
        "error": error,
        "error_message": in_active_language(error.message_en, error.message_ja) if error else "",
        "error_at": error_at or "page",
        "modes": Game.Mode.choices,
        # 大財閥 has no fouls nor 都落ち: the quick result is the finishing order alone.
        "outcome_choices": [
            c for c in quick_outcome_choices(len(seated)) if c[0] == "" or c[0][:5] == "clean"
        ],
        "can_decide": is_head_referee(request.user, tournament),
    }
    ctx |= next_game_context(table, [s for _, s in seated])
    rows: list[Move] = []
    state: State | None = None
    results: dict[int, Any] = {}
    if game is not None:
        rows = list(game.moves.order_by("seq"))
        if game.mode != Game.Mode.QUICK:
            state = rebuild(game, rows)
        ctx |= _moves_context(game, rows, words.log_line)
        results = {r.seat: r for r in game.results.all()}
        ctx["results"] = [
            {"result": r, "name": seat_names.get(r.seat, ""), "title": title_label(r.detail)}
            for r in sorted(results.values(), key=lambda r: r.place)
        ]
        ctx["game_opening"] = services.game_opening(
            table, services.NextGame(game.set_number, game.game_number, game.attempt)
        )
    known = game is not None and game.mode == Game.Mode.KNOWN_DEAL
    ctx["known"] = known
    seat_rows = []
    for i, s in seated:
        row: dict[str, Any] = {
            "seat": i,
            "position": i + 1,
            "drawn_position": s.position,
            "name": s.entry.player.display_name,
            "number": s.entry.number,
        }
        if state is not None:
            row |= {
                "count": state.counts[i],
                "is_turn": state.phase == PHASE_PLAY and not state.owed and state.turn == i,
                "out_place": state.out.index(i) + 1 if i in state.out else None,
                "passed": bool(state.passed >> i & 1),
                "open": bool(state.opened >> i & 1),
                "hand": _card_toggles(state.hands[i]),
            }
        seat_rows.append(row)
    ctx["seats"] = seat_rows
    if state is not None:
        view = observe(state, None)
        ctx["state"] = table_state(view, state.seats)
        ctx["decisions"] = _decision_rows(state, seat_names, known)
        ctx["turn_row"] = next((r for r in seat_rows if r.get("is_turn")), None)
        ctx |= console_clock_context(game, rows, ctx["turn_row"])
        ctx["responders"] = _responders(state, seat_rows)
        if known and state.pile is not None:
            ctx["pile_top"] = [card(card_name(c)) for c in state.pile[:PILE_PREVIEW]]
        if error is not None and not error_at:
            ctx["error_at"] = "decision" if state.owed else "turn"
    return ctx


def move_from_form(request: HttpRequest) -> dict[str, Any]:
    """The move a console form posts: a play (`as`: what the jokers stand for; `respond=1`: out
    of turn), a pass, a target (`target`: a seat), 倍返し or accepting, or the cards of a
    decision (`give`, `discard`, `destroy`, `take`, `drew`), ticked or typed."""
    seat = int(request.POST.get("seat", "-1") or -1)
    chosen = request.POST.getlist("cards") or typed_codes(request.POST.get("cards_text", ""))
    action = request.POST.get("action", "play")
    if action == "pass":
        return {"seat": seat, "pass": True}
    if action == "target":
        target = request.POST.get("target", "")
        return {"seat": seat, "choice": {"target": int(target) if target.isdigit() else -1}}
    if action in ("double_back", "accept"):
        return {"seat": seat, "choice": action}
    if action in ("give", "discard", "destroy", "take", "drew"):
        return {"seat": seat, action: chosen}
    move: dict[str, Any] = {"seat": seat, "play": chosen}
    if request.POST.get("as", "").strip():
        move["as"] = typed_codes(request.POST["as"])
    if request.POST.get("respond") == "1":
        move["respond"] = True
    return move
