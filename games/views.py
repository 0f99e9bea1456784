"""The referee console (審判コンソール, phone-first, htmx) and the public live table page.

Every console action posts a small form, calls one service and answers with the console
partial (htmx swaps it in place; without JavaScript the browser is redirected back to the
console). The console is the only page that shows hands, and only to those who may run the
table; the live page is built from `games.public` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from config import throttling
from config.api_errors import error_body
from config.language import in_active_language
from games import daizaibatsu_views, offline_views, services
from games.api_records import record_filename
from games.clock import console_clock_context
from games.display import (
    GAME_STATUS_LABELS,
    GD_BOMB_KINDS,
    GD_KINDS,
    GD_PLACES,
    SUITS,
    TITLE_LABELS,
    LogLine,
    cards,
    gd_announcements,
    gd_card,
    gd_cards,
    gd_hand_by_rank,
    gd_hand_summary,
    gd_log_line,
    gd_match,
    gd_move_sentence,
    gd_place_label,
    gd_reading,
    gd_wilds_note,
    log_line,
    move_sentence,
    time_fault_sentence,
    title_label,
    typed_codes,
)
from games.engine import (
    PHASE_EXCHANGE,
    PHASE_PLAY,
    InvalidNotation,
    State,
    card_names,
    is_legal,
    observe,
)
from games.engine import Move as EngineMove
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU_FAMILY
from games.engine.guandan import FAMILY as GUANDAN_FAMILY
from games.engine.guandan import PHASE_NAMES as GD_PHASE_NAMES
from games.engine.guandan import PHASE_PLAY as GD_PHASE_PLAY
from games.engine.guandan import State as GuandanState
from games.engine.guandan import (
    format_level,
    parse_level,
    reading_of,
    readings,
    return_options,
    team_of,
    tribute_options,
)
from games.engine.guandan import legal_moves as gd_legal_moves
from games.engine.guandan import pending as gd_pending
from games.engine.multideck import multi_card_name, multi_names, parse_multi
from games.live import current_table_version, may_watch, table_is_public
from games.models import LATEST_FIRST, Game, Move
from games.official_views import parse_finishing_order, quick_outcome_choices
from games.offline import QuickError, move_from_form, parse_quick_outcomes
from games.public import live_table
from games.records import published_record
from games.seating import by_engine_seat, in_seating, seat_names
from games.selectors import public_games
from games.state import effective_actions, family_for, rebuild, rules_for_game
from tournaments.models import Seat, Table
from tournaments.permissions import is_head_referee
from tournaments.referee_views import get_table_for_referee
from tournaments.selectors import visible_tables
from tournaments.services import DomainError, require_round_open


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def current_game(table: Table) -> Game | None:
    return table.games.order_by(*LATEST_FIRST).first()


Failure = services.MoveOutcome | services.GameError


def _seat_row(i: int, seat: Seat) -> dict[str, Any]:
    """A console's row for engine seat `i`: who sits there and the seat numbers people use."""
    return {
        "seat": i,
        # The seat people see and say: the engine seat + 1, where the player sits now.
        "position": i + 1,
        "drawn_position": seat.position,
        "name": seat.entry.player.display_name,
        "number": seat.entry.number,
    }


def _moves_context(game: Game, rows: list[Move], line: Callable[..., LogLine]) -> dict[str, Any]:
    """What both consoles show of a game's moves: the next sequence number, an undo request
    waiting, whether an undo is possible, and the last eight moves in words (by `line`)."""
    in_force = {r.seq for r in effective_actions(rows)}
    return {
        "next_seq": game.last_seq + 1,
        "pending_undo": next((r for r in rows if r.seq == game.undo_pending_seq), None),
        "can_undo": (bool(in_force) and game.status != Game.Status.CONFIRMED)
        or (
            game.mode == Game.Mode.QUICK
            and game.status == Game.Status.FINISHED
            and game.forfeit_seat is None
        ),
        "log": _with_time_faults(
            game,
            [
                line(
                    r.seq,
                    r.kind,
                    r.payload,
                    undone=r.kind == Move.Kind.ACTION and r.seq not in in_force,
                    reason=r.reason,
                )
                for r in reversed(rows[-8:])
            ],
        ),
    }


def _with_time_faults(game: Game, lines: list[LogLine]) -> list[LogLine]:
    """The log lines, latest first, with each time fault (時間切れ) after the row it followed."""
    if not lines:
        return lines
    faults = game.time_faults.filter(due_seq__gte=lines[-1].seq).select_related("penalty")
    out = list(lines)
    for fault in faults:
        fault_line = LogLine(fault.due_seq, time_fault_sentence(fault))
        at = next((i for i, line in enumerate(out) if line.seq <= fault.due_seq), len(out))
        out.insert(at, fault_line)
    return out


def console_context(
    request: HttpRequest,
    table: Table,
    error: Failure | None = None,
    error_at: str = "",
) -> dict[str, Any]:
    """The console's context; a refused action's message goes where it was tapped (`error_at`:
    "undo", "decide"), else where `_error_place` puts a refused move's."""
    tournament = table.round.stage.tournament
    game = current_game(table)
    if is_guandan(table, game):
        return guandan_console_context(request, table, game, error, error_at)
    if daizaibatsu_views.is_daizaibatsu(table, game):
        return daizaibatsu_views.console_context(request, table, game, error, error_at)
    # In turn order as the current game seats them (after a seat change, not as drawn).
    seated = by_engine_seat(
        game, list(Seat.objects.filter(table=table).select_related("entry__player"))
    )
    seats = [s for _, s in seated]
    ctx: dict[str, Any] = {
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "game": game,
        "error": error,
        "error_message": in_active_language(error.message_en, error.message_ja) if error else "",
        "modes": Game.Mode.choices,
        "outcome_choices": quick_outcome_choices(len(seats)),
        "can_decide": is_head_referee(request.user, tournament),
        # The words the offline console names titles and tricks with, as this page does.
        "offline_labels": {
            "titles": {code: TITLE_LABELS[code] for code in TITLE_LABELS},
            "combinations": {code: str(label) for code, label in COMBINATIONS.items()},
        },
        "offline_pyodide": offline_views.pyodide_module_url(),
    }
    ctx |= next_game_context(table, seats)
    rows: list[Move] = []
    state: State | None = None
    if game is not None:
        rows = list(game.moves.order_by("seq"))
        if game.mode != Game.Mode.QUICK:
            state = rebuild(game, rows)
        ctx |= _moves_context(game, rows, log_line)
        results = {r.seat: r for r in game.results.all()}
        ctx["results"] = sorted(results.values(), key=lambda r: r.place)
    else:
        results = {}
    view = observe(state, None) if state is not None else None
    ctx["view"] = view
    ctx["state"] = state
    exposed: dict[str, list[str]] = view["exposed"] if view is not None else {}  # type: ignore[assignment]
    seat_rows = []
    for i, s in seated:
        row = _seat_row(i, s) | {
            "result": results.get(i),
            "title": title_label(results[i].detail) if i in results else "",
        }
        if state is not None:
            hand = state.hand(i)
            row |= {
                "count": state.counts[i],
                "is_turn": state.phase == PHASE_PLAY and state.turn == i,
                "passed": bool(state.passed >> i & 1),
                "out": bool(state.out >> i & 1),
                "hand": None if hand is None else cards(card_names(hand)),
                "exposed": cards(exposed.get(str(i), [])),
                "prev_title": TITLE_LABELS.get(game.titles[i], "") if game and game.titles else "",
            }
            if state.phase == PHASE_EXCHANGE and state.gives[i] == -1:
                row["must_give"] = state.setup.exchange_count[i]
        seat_rows.append(row)
    ctx["seats"] = seat_rows
    ctx["offline_seed"] = offline_views.offline_seed(game, rows, seat_rows, table.pk)
    if game is not None:
        ctx["game_opening"] = services.game_opening(
            table, services.NextGame(game.set_number, game.game_number, game.attempt)
        )
    ctx["error_at"] = "page"
    if state is not None and view is not None:
        rules = state.setup.rules
        ctx["turn_row"] = next((r for r in seat_rows if r.get("is_turn")), None)
        found = out_of_turn(state, view["respond"], seat_rows)  # type: ignore[arg-type]
        # An open table's イッツー is only possible (hands unknown): offered, but folded away.
        maybe = [r["unsure"] and r["declare"] == "instant_win" for r in found]
        ctx["responders"] = [r for r, m in zip(found, maybe, strict=True) if not m]
        ctx["open_instant_wins"] = [r for r, m in zip(found, maybe, strict=True) if m]
        ctx["calls"] = rules.eleven_back == "choice"
        # プンリー: any seat still holding cards may be recorded as having misplayed.
        ctx["misplay_rows"] = (
            [r for r in seat_rows if not r["out"]]
            if rules.misplay and state.phase == PHASE_PLAY
            else []
        )
        ctx["instant_win_open"] = state.start and rules.instant_win
        if error is not None and not error_at:
            ctx["error_at"] = _error_place(request, ctx)
        ctx["exchange_rows"] = [r for r in seat_rows if r.get("must_give")]
        ctx |= console_clock_context(game, rows, ctx["turn_row"])
        table_view = view["table"]
        ctx["trick"] = cards(table_view["cards"]) if isinstance(table_view, dict) else []
        ctx["trick_seat"] = table_view["seat"] if isinstance(table_view, dict) else None
        ctx["trick_kind"] = (
            COMBINATIONS.get(table_view["combination"], table_view["combination"])
            if isinstance(table_view, dict)
            else ""
        )
        ctx["lock"] = "".join(SUITS[s][0] for s in view["lock"])  # type: ignore[attr-defined]
        ctx["known"] = game is not None and game.mode == Game.Mode.KNOWN_DEAL
        # What the offline console (static/kakumei/offline.js) offers beside the engine's view.
        ctx["offline_rules"] = {
            "eleven_back_call": ctx["calls"],
            "instant_win": bool(rules.instant_win),
        }
    if error is not None and error_at:
        # The decision's buttons are gone once the undo is decided: say it by the undo form.
        ctx["error_at"] = (
            "undo" if error_at == "decide" and not ctx.get("pending_undo") else error_at
        )
    return ctx


def next_game_context(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """The next game the console may start: its numbers, how it opens and its seating, or
    why none may start now (`next_blocker`)."""
    ctx: dict[str, Any] = {}
    try:
        try:
            require_round_open(table.round)
        except DomainError as closed:
            raise services.GameError.of(closed) from closed
        ctx["next_numbers"] = nxt = services.next_game_numbers(table)
        opening = services.game_opening(table, nxt)
        ctx["opening"] = opening
        # The next game's seating: the open table's leader is picked by its engine seats.
        ctx["next_seats"] = [
            {
                "seat": i,
                "chair": i + 1,
                "name": s.entry.player.display_name,
                "number": s.entry.number,
            }
            for i, s in in_seating(opening.seating, seats)
        ]
    except services.GameError as exc:
        ctx["next_numbers"] = None
        ctx["next_blocker"] = exc
        ctx["next_blocker_message"] = in_active_language(exc.message_en, exc.message_ja)
    return ctx


# --- 掼蛋 (Guandan) --------------------------------------------------------------------------
# A Guandan hand has its own console (`games/guandan_console.html`): hands laid out by rank in
# the level's order, the wild declaration picker, the tribute, both teams' levels. The console's
# URLs are the same; each view asks `is_guandan` which family the table plays.

# The table diagram: engine seat → where it is drawn, the seat in turn order going round
# counterclockwise from the bottom, so partners (seats 1 and 3, 2 and 4) face each other.
GD_PLACES_ON_TABLE = ("bottom", "right", "top", "left")


def is_guandan(table: Table, game: Game | None) -> bool:
    if game is not None:
        return family_for(game).name == GUANDAN_FAMILY
    return table.round.stage.tournament.plays_in_teams


def _gd_team_names(seated: list[tuple[int, Seat]]) -> list[dict[str, Any]]:
    """Engine team 0 (table positions 1 and 3) and team 1 (2 and 4): the registered team's name
    when both partners name the same `Entry.team`, else "Team A" / "Team B"."""
    teams = []
    for index, fallback in enumerate((_("Team A"), _("Team B"))):
        members = [s for i, s in seated if team_of(i) == index]
        registered = {s.entry.team for s in members}
        team = registered.pop() if len(registered) == 1 else None
        teams.append(
            {
                "index": index,
                "name": team.name if team is not None else fallback,
                "number": team.number if team is not None else None,
                "members": [s.entry.player.display_name for s in members],
            }
        )
    return teams


def _gd_last_events(rows: list[Move]) -> list[dict[str, Any]]:
    """The events of the latest move in force: what the console announces (接风, a bomb, a
    player going out, the tribute settled)."""
    in_force = effective_actions(rows)
    return list(in_force[-1].events) if in_force else []


def guandan_console_context(
    request: HttpRequest,
    table: Table,
    game: Game | None,
    error: Failure | None = None,
    error_at: str = "",
    picker: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The Guandan console's context (see `console_context` for `error_at`); `picker`: the
    readings of a selection the referee must declare (逢人配) before it is played."""
    tournament = table.round.stage.tournament
    seated = by_engine_seat(
        game,
        list(Seat.objects.filter(table=table).select_related("entry__player", "entry__team")),
    )
    ctx: dict[str, Any] = {
        "guandan": True,
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "game": game,
        "error": error,
        "error_message": in_active_language(error.message_en, error.message_ja) if error else "",
        "modes": [(v, label) for v, label in Game.Mode.choices if v != Game.Mode.OPEN_TABLE],
        "can_decide": is_head_referee(request.user, tournament),
        "picker": picker,
        "teams": _gd_team_names(seated),
        "quick_places": [(n, GD_PLACES[str(n)]) for n in range(1, 5)],
    }
    ctx |= next_game_context(table, [s for _, s in seated])
    rows: list[Move] = []
    state: GuandanState | None = None
    results: dict[int, Any] = {}
    if game is not None:
        rows = list(game.moves.order_by("seq"))
        if game.mode != Game.Mode.QUICK:
            state = rebuild(game, rows)
        ctx |= _moves_context(game, rows, gd_log_line)
        results = {r.seat: r for r in game.results.all()}
        seat_names = {i: s.entry.player.display_name for i, s in seated}
        ctx["placings"] = [
            {
                "result": r,
                "name": seat_names.get(r.seat, ""),
                "place_label": gd_place_label(r.place, [o.place for o in results.values()]),
            }
            for r in sorted(results.values(), key=lambda r: (r.place, r.seat))
        ]
        ctx["game_opening"] = services.game_opening(
            table, services.NextGame(game.set_number, game.game_number, game.attempt)
        )
        match = gd_match(game.match)
        ctx["match"] = match
        ctx["aces_rule"] = bool(getattr(rules_for_game(game), "aces_finish_demotes", False))
        for team in ctx["teams"]:
            i = team["index"]
            team |= {
                "level": match["levels"][i],
                "failures": match["failures"][i],
                "declares": match["declarer"] == i,
            }
        ctx["hand_result"] = gd_hand_summary(ctx["teams"], results)
    level = state.level if state is not None else None
    names = {i: s.entry.player.display_name for i, s in seated}
    seat_rows = []
    for i, s in seated:
        row = _seat_row(i, s) | {
            "team": team_of(i),
            "team_name": ctx["teams"][team_of(i)]["name"],
            "place_on_table": GD_PLACES_ON_TABLE[i % 4],
            "result": results.get(i),
        }
        if state is not None and level is not None:
            out = list(state.out)
            row |= {
                "count": len(state.hands[i]),
                "is_turn": state.phase == GD_PHASE_PLAY and state.turn == i,
                "passed": bool(state.passed >> i & 1),
                "out_place": out.index(i) + 1 if i in out else None,
                "out_label": GD_PLACES.get(str(out.index(i) + 1), "") if i in out else "",
                "hand": gd_hand_by_rank(multi_names(state.hands[i]), level),
            }
        seat_rows.append(row)
    ctx["seats"] = seat_rows
    ctx["error_at"] = error_at or "page"
    if state is not None and level is not None:
        ctx["state"] = state
        ctx["phase"] = GD_PHASE_NAMES[state.phase]
        ctx["level_name"] = format_level(level)
        ctx["wild"] = gd_card(multi_card_name(state.setup.wild), level)
        turn_row = next((r for r in seat_rows if r.get("is_turn")), None)
        if turn_row is not None:
            # 炸弹 badges: the ranks the seat in turn can bomb with now (wilds included).
            bombs = frozenset(
                combo.key
                for combo, _targets in (
                    reading_of(state, m) for m in gd_legal_moves(state) if m.action == "play"
                )
                if combo.kind == "bomb"
            )
            turn_row["hand"] = gd_hand_by_rank(
                multi_names(state.hands[turn_row["seat"]]), level, bombs
            )
            if picker is not None:
                chosen = list(picker["cards"])
                for group in turn_row["hand"]:
                    for c in group["cards"]:
                        if c["code"] in chosen:
                            chosen.remove(c["code"])
                            c["checked"] = True
        ctx["turn_row"] = turn_row
        ctx |= console_clock_context(game, rows, turn_row)
        ctx["tribute"] = _gd_tribute(state, names, level)
        ctx["anti_tribute"] = state.setup.anti_tribute
        ctx["anti_tribute_seats"] = [names.get(p, "") for p in state.setup.payers]
        if state.table is not None:
            ctx["trick"] = gd_cards(multi_names(state.table_cards), level)
            ctx["trick_seat"] = state.last + 1
            ctx["trick_name"] = names.get(state.last, "")
            ctx["trick_kind"] = gd_reading(
                state.table.kind, state.table.key, state.table.size, level
            )
            ctx["trick_bomb"] = state.table.is_bomb
            ctx["trick_wilds"] = gd_wilds_note([multi_card_name(c) for c in state.table_as])
        ctx["announcements"] = gd_announcements(_gd_last_events(rows), names)
        if error is not None and not error_at:
            ctx["error_at"] = (
                "turn" if turn_row is not None else ("tribute" if ctx["tribute"] else "page")
            )
    return ctx


def _gd_tribute(state: GuandanState, names: dict[int, str], level: int) -> list[dict[str, Any]]:
    """The tribute decisions owed now (进贡, 还贡, first place taking one of two equal
    tributes), each with only the cards the engine allows."""
    owed = []
    for decision in gd_pending(state):
        seat = decision.seat
        entry: dict[str, Any] = {
            "seat": seat,
            "position": seat + 1,
            "name": names.get(seat, ""),
            "kind": decision.kind,
        }
        if decision.kind == "tribute":
            options = tribute_options(state, seat)
        elif decision.kind == "return":
            options = return_options(state, seat)
            payer = next(p for p in range(4) if state.gets[p] == seat)
            entry["to_name"] = names.get(payer, "")
        else:
            entry["payers"] = [
                {
                    "seat": p,
                    "name": names.get(p, ""),
                    "card": gd_card(multi_card_name(state.paid[p]), level),
                }
                for p in state.setup.payers
            ]
            options = []
        entry["options"] = gd_cards([multi_card_name(c) for c in options], level)
        owed.append(entry)
    return owed


def gd_picker(game: Game, seat: int, chosen: list[str]) -> dict[str, Any] | None:
    """The readings the referee must choose between before `chosen` is played (逢人配): more
    than one reading — following, more than one that beats the table (the engine's own rule,
    E8); None when the engine needs no declaration (or will refuse the cards anyway)."""
    state = rebuild(game)
    if state.phase != GD_PHASE_PLAY or state.turn != seat:
        return None
    try:
        selection = parse_multi(chosen)
    except InvalidNotation:
        return None
    if selection not in state.hands[seat]:
        return None
    level = state.level
    found = readings(selection, level)
    if state.table is not None:
        found = {c: t for c, t in found.items() if c.beats(state.table)}
    if len(found) < 2:
        return None
    options = []
    for combo, targets in sorted(found.items(), key=lambda kv: (kv[0].tier, kv[0].key)):
        names = [multi_card_name(t) for t in targets]
        options.append(
            {
                "as": " ".join(names),
                "label": gd_reading(combo.kind, combo.key, combo.size, level),
                "bomb": combo.is_bomb,
                "wilds": gd_wilds_note(names),
            }
        )
    return {"seat": seat, "cards": chosen, "readings": options}


def gd_selection(game: Game, seat: int, chosen: list[str]) -> dict[str, Any] | None:
    """What the cards the referee has tapped make, in the engine's readings: one reading (a
    bomb announced as such), several (the referee will choose when playing), or none."""
    if not chosen:
        return None
    state = rebuild(game)
    try:
        selection = parse_multi(chosen)
    except InvalidNotation:
        return {"readings": []}
    if state.phase != GD_PHASE_PLAY or selection not in state.hands[seat]:
        return None
    level = state.level
    found = readings(selection, level)
    return {
        "count": len(selection),
        "readings": [
            {
                "label": gd_reading(combo.kind, combo.key, combo.size, level),
                "bomb": combo.is_bomb,
                "beats": state.table is None or combo.beats(state.table),
            }
            for combo in sorted(found, key=lambda c: (c.tier, c.key))
        ],
    }


def _gd_play(request: HttpRequest, table: Table, game: Game) -> HttpResponse:
    """A Guandan action: a play (with the wilds' declaration `as`), a pass, a tribute (进贡), a
    card given back (还贡), or first place taking one of two equal tributes (`take`)."""
    seat = int(request.POST.get("seat", "-1") or -1)
    chosen = request.POST.getlist("cards") or typed_codes(request.POST.get("cards_text", ""))
    action = request.POST.get("action", "play")
    move: dict[str, Any]
    if action == "pass":
        move = {"seat": seat, "pass": True}
    elif action in ("tribute", "return"):
        move = {"seat": seat, action: chosen}
    elif action == "take":
        source = request.POST.get("take", "")
        move = {"seat": seat, "take": int(source) if source.isdigit() else -1}
    elif action == "read":
        # Nothing is played: what the selection reads as, shown while the referee taps cards.
        return render(
            request,
            "games/guandan_console.html#selection",
            {"selection": gd_selection(game, seat, chosen)},
        )
    else:
        move = {"seat": seat, "play": chosen}
        declared = request.POST.get("as", "").split()
        if declared:
            move["as"] = declared
        else:
            picker = gd_picker(game, seat, chosen)
            if picker is not None:
                # Nothing is submitted: the referee declares what the wilds stand for first.
                context = guandan_console_context(request, table, game, picker=picker)
                htmx = getattr(request, "htmx", False)
                template = (
                    "games/guandan_console.html#console" if htmx else ("games/guandan_console.html")
                )
                return render(request, template, context)
    outcome = services.submit_move(game, move, _seq(request), request.user)
    if outcome.ok:
        return render_console(request, table)
    return render_console(request, table, outcome, status=200)


def _gd_quick(request: HttpRequest, table: Table, game: Game) -> HttpResponse:
    """A Guandan hand's quick result: the finishing order (first out, second …; a 1-2 finish
    needs only two) and, where the preset has the rule, a last play of aces only."""
    try:
        order, _chosen, aces_only = parse_finishing_order(request.POST, seat_names(game))
        services.record_quick_result(game, request.user, order, aces_only=aces_only)
    except QuickError as error:
        return render_console(request, table, services.GameError.of(error))
    except services.GameError as error:
        return render_console(request, table, error)
    return render_console(request, table)


RETURN_NAMES = {"3S": gettext_lazy("♠3 return"), "3H": gettext_lazy("♥3 return")}

# The engine's names of a trick's combination (`observe()["table"]["combination"]`).
COMBINATIONS = {
    "single": gettext_lazy("single"),
    "set": gettext_lazy("set"),
    "stairs": gettext_lazy("stairs"),
    "double_stairs": gettext_lazy("double stairs"),
    "triple_run": gettext_lazy("triple run"),
}


def out_of_turn(
    state: State, respond: list[int], seat_rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The seats besides the one in turn that may act now (the engine's `respond` actions): a
    return card answering a lone joker (`observe()["respond"]`), イッツー before the first play.

    A known hand is put to the engine (`is_legal`), so only a seat that can really do it is
    offered, its card(s) already picked; an open-table hand is unknown, so every seat the window
    is open for is offered (`unsure`), with a text field for the cards."""
    if state.phase != PHASE_PLAY:
        return []
    rules = state.setup.rules
    found: list[dict[str, Any]] = []
    for row in seat_rows:
        seat = row["seat"]
        hand = state.hand(seat)
        if seat == state.turn or row["out"]:
            continue
        if seat in respond:
            returns = card_names(state.setup.returns)
            if hand is not None:
                returns = [
                    c for c in returns if is_legal(state, EngineMove.play(seat, c, respond=True))
                ]
            if returns:
                label = " / ".join(str(RETURN_NAMES.get(c, c)) for c in returns)
                found.append(_responder(row, label, _("Answer"), returns, unsure=hand is None))
        elif state.start and rules.instant_win:
            move = EngineMove(seat, hand or 0, declare="instant_win", respond=True)
            if hand is None or is_legal(state, move):
                whole = card_names(hand) if hand else []
                label, button = _("instant win (itsū)"), _("Declare instant win (itsū)")
                found.append(
                    _responder(
                        row, label, button, whole, unsure=hand is None, declare="instant_win"
                    )
                )
    return found


def _responder(
    row: dict[str, Any],
    label: str,
    button: str,
    picked: list[str],
    *,
    unsure: bool,
    declare: str = "",
) -> dict[str, Any]:
    """A seat row for an out-of-turn form: its hand picker has `picked` already ticked."""
    picker = [c | {"checked": c["code"] in picked} for c in row["hand"] or []]
    return row | {
        "label": label,
        "button": button,
        "picker": picker,
        "placeholder": " ".join(picked) or "3H",
        "declare": declare,
        "unsure": unsure,
    }


def _error_place(request: HttpRequest, ctx: dict[str, Any]) -> str:
    """Where a refused move's message goes: beside the out-of-turn form that posted it, else in
    the turn form (when it is shown), else at the foot of the console."""
    if request.POST.get("respond") == "1":
        seat = request.POST.get("seat")
        for row in [*ctx["responders"], *ctx["open_instant_wins"]]:
            if str(row["seat"]) == seat:
                row["error"] = True
                return "respond"
    if request.POST.get("misplay") == "1" and ctx.get("misplay_rows"):
        return "misplay"
    game = ctx["game"]
    if ctx["turn_row"] and not ctx.get("pending_undo") and game.status == Game.Status.IN_PLAY:
        return "turn"
    return "page"


def render_console(
    request: HttpRequest,
    table: Table,
    error: Failure | None = None,
    status: int = 200,
    error_at: str = "",
) -> HttpResponse:
    htmx = getattr(request, "htmx", False)
    if request.method == "POST" and not htmx:
        if error is not None:
            messages.error(request, in_active_language(error.message_en, error.message_ja))
        return redirect("referee:table", table_id=table.pk)
    context = console_context(request, table, error, error_at)
    if error is not None and request.method == "POST":
        # A refused quick result is drawn again as it was chosen, to be put right.
        context["chosen_outcomes"] = {
            int(seat): value
            for field, value in request.POST.items()
            if (seat := field.removeprefix("outcome_")) != field and seat.isdigit()
        }
    page = "games/guandan_console.html" if context.get("guandan") else "games/console.html"
    if context.get("daizaibatsu"):
        page = "games/daizaibatsu_console.html"
    template = f"{page}#console" if htmx else page
    return render(request, template, context, status=status)


@login_required
@require_GET
def console(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_table_for_referee(request, table_id)
    return render_console(request, table)


@never_cache
@login_required
@require_GET
def offline_seed(request: HttpRequest, table_id: int) -> JsonResponse:
    """The console's offline seed alone (games.offline_views), for a phone whose queued moves
    met a game that moved on: the game as the server has it now."""
    table = get_table_for_referee(request, table_id)
    game = current_game(table)
    seated = by_engine_seat(
        game, list(Seat.objects.filter(table=table).select_related("entry__player"))
    )
    rows = list(game.moves.order_by("seq")) if game is not None else []
    seats = [_seat_row(i, s) for i, s in seated]
    return JsonResponse(offline_views.offline_seed(game, rows, seats, table.pk))


def _seq(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("seq", "0"))
    except ValueError:
        return 0


def _game_of(table: Table) -> Game:
    game = current_game(table)
    if game is None:
        raise services.GameError("no_game", "Start a game first.", "ゲームを開始してください")
    return game


@login_required
@require_POST
def start(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_table_for_referee(request, table_id)
    leader_text = request.POST.get("leader", "")
    try:
        services.start_game(
            table,
            request.user,
            mode=request.POST.get("mode", Game.Mode.KNOWN_DEAL),
            leader=int(leader_text) if leader_text.isdigit() else None,
        )
    except services.GameError as error:
        return render_console(request, table, error)
    return render_console(request, table)


@login_required
@require_POST
def play(request: HttpRequest, table_id: int) -> HttpResponse:
    """A play or a pass for the seat whose turn it is (or a give in the exchange), an
    out-of-turn action (`respond=1`: a return card answering a lone joker, イッツー), or a
    misplay the referee records (`action=misplay`, プンリー: any seat, the cards stay face up)."""
    table = get_table_for_referee(request, table_id)
    try:
        game = _game_of(table)
    except services.GameError as error:
        return render_console(request, table, error)
    if is_guandan(table, game):
        return _gd_play(request, table, game)
    if daizaibatsu_views.is_daizaibatsu(table, game):
        outcome = services.submit_move(
            game, daizaibatsu_views.move_from_form(request), _seq(request), request.user
        )
        return render_console(request, table, None if outcome.ok else outcome)
    # Read as the offline console reads it in the browser (games.offline), so a tap means the
    # same move online and offline.
    move = move_from_form({name: request.POST.getlist(name) for name in request.POST})
    outcome = services.submit_move(game, move, _seq(request), request.user)
    if outcome.ok:
        return render_console(request, table)
    return render_console(request, table, outcome, status=200)


@login_required
@require_POST
def time_fault(request: HttpRequest, table_id: int) -> HttpResponse:
    """The referee's 時間切れ for the seat in turn, on the decision the page showed (`seq`: the
    game's `last_seq` as drawn), so a second tap answers the fault already recorded."""
    table = get_table_for_referee(request, table_id)
    try:
        outcome = services.record_time_fault(
            _game_of(table),
            _target(request, "seat"),
            request.user,
            seq=_target(request, "seq"),
        )
    except services.GameError as error:
        return render_console(request, table, error, _refusal_status(error), error_at="clock")
    if not getattr(request, "htmx", False):
        messages.info(request, in_active_language(outcome.message_en, outcome.message_ja))
    return render_console(request, table)


def _refusal_status(error: services.GameError) -> int:
    """409 for a stale target (done already, or the game moved on), as the API answers it."""
    return 409 if error.code in services.STALE_TARGET_CODES else 200


def _target(request: HttpRequest, name: str) -> int:
    """The number a correcting form names as what its page showed (a hidden field); -1 when
    missing, which no game matches, so a form from an older page is refused, not guessed."""
    value = request.POST.get(name, "")
    return int(value) if value.isdigit() else -1


@login_required
@require_POST
def undo(request: HttpRequest, table_id: int) -> HttpResponse:
    """Undo the last move (a quick game: withdraw its result) — the one the page showed: the
    form names the game's `last_seq` (`result_version` for a quick result) as it was drawn."""
    table = get_table_for_referee(request, table_id)
    reason = request.POST.get("reason", "")
    try:
        game = _game_of(table)
        if game.mode == Game.Mode.QUICK:
            services.withdraw_quick_result(
                game, request.user, reason, result_version=_target(request, "result_version")
            )
        else:
            services.request_undo(game, request.user, reason, seq=_target(request, "seq"))
    except services.GameError as error:
        return render_console(request, table, error, _refusal_status(error), error_at="undo")
    return render_console(request, table)


@login_required
@require_POST
def decide(request: HttpRequest, table_id: int) -> HttpResponse:
    """Approve or refuse the pending undo the page showed (the form names its row, `seq`)."""
    table = get_table_for_referee(request, table_id)
    try:
        services.decide_undo(
            _game_of(table),
            request.user,
            request.POST.get("approve") == "yes",
            seq=_target(request, "seq"),
        )
    except services.GameError as error:
        return render_console(request, table, error, _refusal_status(error), error_at="decide")
    return render_console(request, table)


@login_required
@require_POST
def quick(request: HttpRequest, table_id: int) -> HttpResponse:
    """Quick result: each seat's outcome is `clean-N` (N-th clean finisher; the player left with
    cards comes last), `foul-N` (N-th foul) or `miyako` (都落ち), read by the one parser of
    quick results (`games.offline.parse_quick_outcomes`, the offline judge's too)."""
    table = get_table_for_referee(request, table_id)
    try:
        game = _game_of(table)
        if is_guandan(table, game):
            return _gd_quick(request, table, game)
        outcome = parse_quick_outcomes(request.POST, game.seats, seat_names(game))
        services.record_quick_result(
            game, request.user, outcome.finishing_order, outcome.fouls, outcome.miyako_ochi
        )
    except QuickError as error:  # the form cannot be read as a result: nothing is saved
        return render_console(request, table, services.GameError.of(error))
    except services.GameError as error:
        return render_console(request, table, error)
    return render_console(request, table)


@login_required
@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    """Confirm a finished game's result: a second official with their own account, or — on the
    recorder's device — a seated player who picks their name and types the table's PIN
    (printed on the table card, never shown here). The page always says what happens next."""
    game = get_object_or_404(
        Game.objects.select_related("table__round__stage__tournament"), pk=game_id
    )
    if not services.can_confirm(request.user, game) and not services.can_run_table(
        request.user, game.table
    ):
        raise PermissionDenied(
            _(
                "Only the officials of this tournament and the players at this table confirm "
                "its results: ask the table's referee or the head referee."
            )
        )
    error: services.GameError | None = None
    status = 200
    done = ""
    wait: int | None = None
    if request.method == "POST":
        try:
            if request.POST.get("by") == "player":
                # Wrong PINs count against the address too: past the `failed-credentials`
                # rate its PINs are refused unchecked (config/throttling.py).
                wait = throttling.failed_credentials_wait(request)
                if wait is not None:
                    raise too_many_pin_failures(wait)
                seat_text = request.POST.get("seat", "")
                services.confirm_game_by_player(
                    game,
                    request.user,
                    int(seat_text) if seat_text.isdigit() else -1,
                    request.POST.get("pin", ""),
                )
                done = _("Result confirmed by the player.")
            else:
                services.confirm_game(game, request.user)
                done = _("Result confirmed.")
        except services.GameError as exc:
            error, status = exc, 429 if exc.code == "throttled" else 422
            if exc.code == "wrong_pin":
                throttling.count_failed_credentials(request)
        except PermissionDenied:
            error = RECORDER_CANNOT_CONFIRM
            if request.POST.get("by") == "player":
                error = PIN_ON_REFEREE_DEVICE
            status = 403
        else:
            if not getattr(request, "htmx", False):
                messages.success(request, done)
                return redirect("referee:confirm", game_id=game.pk)
        game.refresh_from_db()
    template = "games/confirm.html#confirm" if getattr(request, "htmx", False) else None
    context = confirm_context(request, game, error)
    context["done"] = done if request.method == "POST" and error is None else ""
    response = render(request, template or "games/confirm.html", context, status=status)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def too_many_pin_failures(seconds: int) -> services.GameError:
    minutes = max(1, -(-seconds // 60))
    return services.GameError(
        "throttled",
        f"Too many wrong PINs and sign-ins from this network: wait {minutes} "
        f"{'minute' if minutes == 1 else 'minutes'}, or ask the head referee to confirm this "
        "result.",
        f"この接続元からのPIN・サインインの失敗が続いています。{minutes}分待つか、主審に確定を"
        "依頼してください。",
    )


RECORDER_CANNOT_CONFIRM = services.GameError(
    "permission_denied",
    "You recorded this result, so your own account cannot confirm it: a player at the table "
    "confirms with the PIN, or the head referee confirms.",
    "記録者本人のアカウントでは確定できません。卓の選手がPINで確認するか、主審が確定します。",
)

PIN_ON_REFEREE_DEVICE = services.GameError(
    "permission_denied",
    "A player confirms with the PIN on the phone of this table's referee: ask them.",
    "PINによる確認はこの卓の審判の端末で行います。審判に声をかけてください。",
)


def confirm_context(
    request: HttpRequest, game: Game, error: services.GameError | None = None
) -> dict[str, Any]:
    """The confirm page: the result, who may confirm it how, and what happens next."""
    table = game.table
    seated = by_engine_seat(
        game, list(Seat.objects.filter(table=table).select_related("entry__player"))
    )
    seats = {i: s.entry.player.display_name for i, s in seated}
    results = [
        {"r": r, "name": seats.get(r.seat, ""), "title": title_label(r.detail)}
        for r in game.results.order_by("place")
    ]
    runs_table = services.can_run_table(request.user, table)
    next_step = ""
    next_numbers = None
    if game.status == Game.Status.FINISHED and game.forfeit_seat is None:
        next_step = "waiting"
    else:
        try:
            require_round_open(table.round)
            next_numbers = services.next_game_numbers(table)
            next_step = "next_game"
        except DomainError:
            next_step = "round_closed"
        except services.GameError as blocked:
            next_step = "table_done" if blocked.code == "round_complete" else "in_play"
    return {
        "game": game,
        "table": table,
        "round": table.round,
        "results": results,
        "error": error,
        "can_confirm": services.can_confirm(request.user, game),
        "runs_table": runs_table,
        "player_seats": [
            {"seat": i, "name": s.entry.player.display_name, "number": s.entry.number}
            for i, s in seated
        ],
        "pin_locked": services.pin_locked(table),
        "pin_attempts": services.PIN_ATTEMPTS,
        "next_step": next_step,
        "next_numbers": next_numbers,
        "confirmed_by_name": seats.get(game.confirmed_by_seat, "")
        if game.confirmed_by_seat is not None
        else "",
    }


# A rendered live view is kept this long per version; viewers of a busy table ask for each
# version within seconds of the next one.
LIVE_FRAGMENT_SECONDS = 300


@require_GET
def live(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The public live table: trick, counts, events, placings — hands hidden until the end.

    The htmx poll sends the version it shows (`?v=`): unchanged, the answer is an empty 204
    read from the cache, with no database query; changed, the view of the new version is
    rendered once (per language) and served from the cache to every viewer. Both answers are
    public, so a reverse proxy or a CDN may serve them for a second (docs/live.md)."""
    version = current_table_version(table_id)
    if request.htmx and request.GET.get("v") == version:
        return _public(HttpResponse(status=204), version)
    if request.htmx:
        fragment = cache.get(_fragment_key(table_id, version))
        if fragment is None:
            if not may_watch(request.user, table_id):
                raise Http404("No such table.")
            fragment = _live_fragment(table_id, version)
        return _public(HttpResponse(fragment), version)
    table = get_object_or_404(visible_tables(request.user), pk=table_id)
    fragment = cache.get(_fragment_key(table_id, version)) or _live_fragment(table_id, version)
    return render(request, "games/live.html", {"table": table, "fragment": fragment})


def _fragment_key(table_id: int, version: str) -> str:
    return f"live:table:{table_id}:{version}:{get_language()}"


def _public(response: HttpResponse, version: str) -> HttpResponse:
    response["Cache-Control"] = "public, max-age=1"
    response["ETag"] = f'"{version}"'
    patch_vary_headers(response, ("HX-Request", "Accept-Language", "Cookie"))
    return response


def _live_fragment(table_id: int, version: str) -> str:
    """The public view of the table at `version`, rendered; kept in the cache when the public
    may see the table (a referee's own table in a draft round is rendered for them alone)."""
    data = live_table(table_id)
    game = data["game"]
    if game is not None and game.get("family") == GUANDAN_FAMILY:
        return _gd_live_fragment(table_id, version, data)
    if game is not None and game.get("family") == DAIZAIBATSU_FAMILY:
        fragment = daizaibatsu_views.live_fragment(table_id, version, data)
        if table_is_public(table_id):
            cache.set(_fragment_key(table_id, version), fragment, LIVE_FRAGMENT_SECONDS)
        return fragment
    trick: list[dict[str, str]] = []
    if game and game["state"] and game["state"]["table"]:
        trick = cards(game["state"]["table"]["cards"])
    names = {s["seat"]: s["player"] for s in data["seats"]}
    drawn_at = {s["seat"]: s["position"] for s in data["seats"]}
    hands = []
    if game and game["state"]:
        for i, hand in enumerate(game["state"]["hands"]):
            hands.append(
                {
                    "seat": i + 1,
                    "drawn_position": drawn_at.get(i),
                    "name": names.get(i, _("Seat %(number)s") % {"number": i + 1}),
                    "count": game["state"]["counts"][i],
                    "cards": cards(hand) if hand else None,
                    "exposed": cards(game["state"].get("exposed", {}).get(str(i), [])),
                    "is_turn": game["state"]["turn"] == i,
                }
            )
    events = [
        {"seq": m["seq"], "words": move_sentence(m, names), "withdrawn": m["withdrawn"]}
        for m in (game or {}).get("recent", [])
    ]
    results = [
        r | {"name": names.get(r["seat"], ""), "title_label": title_label(r.get("detail") or {})}
        for r in (game or {}).get("results") or []
    ]
    ctx = {
        "table_id": table_id,
        "version": version,
        "game": game,
        # Who sits where in the current game, seat by seat (after a seat change too).
        "seating": [{**s, "seat": s["seat"] + 1} for s in data["seats"]],
        # Read from the game's own seating: a version is rendered without asking the round.
        "reseated": any(s["seat"] + 1 != s["position"] for s in data["seats"]),
        "status_label": GAME_STATUS_LABELS.get((game or {}).get("status", ""), ""),
        "lock": " ".join(
            SUITS[s][0] for s in ((game or {}).get("state") or {}).get("lock", []) if s in SUITS
        ),
        "trick": trick,
        "hands": hands,
        "events": events,
        "results": results,
    }
    fragment = render_to_string("games/live.html#live", ctx)
    if table_is_public(table_id):
        cache.set(_fragment_key(table_id, version), fragment, LIVE_FRAGMENT_SECONDS)
    return fragment


def _gd_live_fragment(table_id: int, version: str, data: dict[str, Any]) -> str:
    """The public view of a Guandan hand: both teams' levels, whose turn, the cards on the
    table, each seat's card count (the engine shows a count above 10 to nobody but its
    holder: rule 16), who is out, the tribute, the hand's result — never a hand."""
    game = data["game"]
    view = game["state"] or {}
    names = {s["seat"]: s["player"] for s in data["seats"]}
    team_at = dict(
        Seat.objects.filter(table_id=table_id).values_list("position", "entry__team__name")
    )
    teams = []
    for index, fallback in enumerate((_("Team A"), _("Team B"))):
        members = [s for s in data["seats"] if team_of(s["seat"]) == index]
        registered = {team_at.get(s["position"]) for s in members}
        name = registered.pop() if len(registered) == 1 else None
        teams.append({"index": index, "name": name or fallback, "members": members})
    match = gd_match(game.get("match"))
    declarer = view.get("declarer")
    for team in teams:
        i = team["index"]
        team |= {"level": (view.get("levels") or match["levels"])[i], "declares": declarer == i}
    level_name = view.get("level") or match["level"]
    level = parse_level(level_name) if level_name else None
    out = list(view.get("out") or [])
    seats = []
    for s in data["seats"]:
        i = s["seat"]
        counts = view.get("counts") or []
        seats.append(
            {
                "seat": i + 1,
                "name": s["player"],
                "team": team_of(i),
                "team_name": teams[team_of(i)]["name"],
                "place_on_table": GD_PLACES_ON_TABLE[i % 4],
                "count": counts[i] if i < len(counts) else None,
                "has_state": bool(view),
                "is_turn": view.get("turn") == i,
                "passed": i in (view.get("passed") or []),
                "out_label": GD_PLACES.get(str(out.index(i) + 1), "") if i in out else "",
            }
        )
    table_view = view.get("table")
    trick = gd_cards(table_view["cards"], level) if table_view else []
    combination = str(table_view["combination"]) if table_view else ""
    results = {r["seat"]: r for r in game.get("results") or []}
    ctx = {
        "table_id": table_id,
        "version": version,
        "game": game,
        "phase": view.get("phase"),
        "status_label": GAME_STATUS_LABELS.get(game.get("status", ""), ""),
        "teams": teams,
        "declarer": declarer,
        "level_name": level_name,
        "wild": gd_card(f"{level_name[0] if level_name != '10' else 'T'}H", level)
        if level_name
        else None,
        "turn_name": names.get(view["turn"], "") if view.get("turn") is not None else "",
        "seats": seats,
        "trick": trick,
        "trick_kind": GD_KINDS.get(combination, combination),
        "trick_bomb": combination in GD_BOMB_KINDS,
        "trick_name": names.get(table_view["seat"], "") if table_view else "",
        "trick_wilds": gd_wilds_note(list(table_view.get("as") or [])) if table_view else "",
        "anti_tribute": view.get("anti_tribute") and view.get("phase") != "tribute",
        "tributes": [
            {
                "name": names.get(t["seat"], ""),
                "card": gd_card(t["card"], level),
                "to": names.get(t["to"], "") if t.get("to", -1) >= 0 else "",
            }
            for t in view.get("tributes") or []
        ],
        "events": [
            {"seq": m["seq"], "words": gd_move_sentence(m, names), "withdrawn": m["withdrawn"]}
            for m in game.get("recent", [])
        ],
        "placings": [
            {
                "name": names.get(r["seat"], ""),
                "place_label": gd_place_label(r["place"], [o["place"] for o in results.values()]),
                "place": r["place"],
            }
            for r in sorted(results.values(), key=lambda r: (r["place"], r["seat"]))
        ],
        "hand_result": gd_hand_summary(teams, results),
    }
    fragment = render_to_string("games/live.html#live-guandan", ctx)
    if table_is_public(table_id):
        cache.set(_fragment_key(table_id, version), fragment, LIVE_FRAGMENT_SECONDS)
    return fragment


@require_GET
def record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game's record (棋譜) as a file that `python -m games.engine replay` reads: the page's
    download link for `/api/games/<id>/record/` (docs/records-for-tools.md)."""
    game = get_object_or_404(public_games(), pk=game_id)
    try:
        record = published_record(game)
    except services.GameError as error:
        body = error_body(error.code, error.message_en, error.message_ja)
        return JsonResponse(body, status=409, json_dumps_params={"ensure_ascii": False})
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{record_filename(game)}"'
    return response
