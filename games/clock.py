"""The think-time clock (持ち時間): how long each decision took, the limit a tournament sets, and
the `clock` key of a game's `kakumei-record/1` (docs/record-format.md).

The clock runs per decision: a decision becomes due when the game's log last changed (the
previous move, an undo, a head referee's decision, or the game's start) and ends when the next
action arrives. JDF gives every decision 20 seconds; an 8-cut's player leads again, which is a
new decision, so the cutter's time is restored without a rule of its own. The engine only sees
moves; the limit and its faults are the referee's (`record_time_fault` in games.services), so
the preset's default lives here, keyed by preset id, rather than as a ruleset switch that
would change every record's identity.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from games.display import time_fault_sentence
from games.engine.daifugo import DAIFUGO
from games.models import Game, Move, TimeFault
from games.seating import seat_at
from games.state import effective_actions, family_for
from tournaments.models import Seat, Tournament

# Seconds per decision when the tournament leaves `think_seconds` blank; absent: no clock.
PRESET_THINK_SECONDS: dict[str, int] = {"jdf": 20}


def think_limit(tournament: Tournament) -> int | None:
    """Seconds per decision for the tournament's games, or None when there is no clock."""
    seconds = tournament.think_seconds
    if seconds is None:
        seconds = PRESET_THINK_SECONDS.get(tournament.ruleset_id)
    return seconds or None


def elapsed_ms(since: datetime.datetime, now: datetime.datetime) -> int:
    return max(0, int((now - since).total_seconds() * 1000))


def decision_due_at(game: Game) -> datetime.datetime:
    """When the decision now in play became due: the log's latest row, or the game's start."""
    return game.last_logged_at or game.created_at


@dataclass(frozen=True, slots=True)
class ConsoleClock:
    """What the console's countdown shows for the seat in turn."""

    limit: int
    due_at: datetime.datetime
    deadline: datetime.datetime
    seat: int
    # The decision follows the seat's own 8切り: its time was restored, said in words.
    after_eight_cut: bool
    # A time fault is already recorded for this decision.
    fault: TimeFault | None


def console_clock(game: Game | None, rows: list[Move], seat: int | None) -> ConsoleClock | None:
    """The countdown for `seat` (in turn) from the log `rows`, None when there is no clock."""
    if game is None or seat is None or game.status != Game.Status.IN_PLAY:
        return None
    if game.mode == Game.Mode.QUICK or game.undo_pending_seq is not None:
        return None
    limit = think_limit(game.table.round.stage.tournament)
    if limit is None:
        return None
    due_at = decision_due_at(game)
    last = rows[-1] if rows else None
    after_eight_cut = (
        last is not None
        and last.kind == Move.Kind.ACTION
        and last.seat == seat
        and any(e.get("kind") == "eight_cut" for e in last.events)
    )
    return ConsoleClock(
        limit=limit,
        due_at=due_at,
        deadline=due_at + datetime.timedelta(seconds=limit),
        seat=seat,
        after_eight_cut=after_eight_cut,
        fault=game.time_faults.filter(due_seq=game.last_seq).first(),
    )


def console_clock_context(
    game: Game | None, rows: list[Move], turn_row: dict[str, Any] | None
) -> dict[str, Any]:
    """The consoles' `clock` (None: no countdown) and the fault already recorded, in words."""
    found = console_clock(game, rows, turn_row["seat"] if turn_row else None)
    fault = found.fault if found else None
    return {"clock": found, "clock_fault": time_fault_sentence(fault) if fault else ""}


def record_clock(game: Game) -> dict[str, Any] | None:
    """The record's `clock` key for `game` (docs/record-format.md): the limit, each recorded
    move's think time and the time faults, aligned with the record's `moves` (exchange gives,
    which a 大富豪 record keeps under `exchange`, get `exchange_think_ms`). None when nothing
    was timed: a quick result, or a game with no timed move and no fault."""
    if game.mode == Game.Mode.QUICK:
        return None
    rows = list(game.moves.order_by("seq"))
    actions = effective_actions(rows)
    # Only a 大富豪 record keeps its exchange apart from its moves; 大財閥's 7-give and 掼蛋's
    # tribute are moves of the record like any play.
    apart = family_for(game).name == DAIFUGO.name
    gives = [r for r in actions if apart and "give" in r.payload]
    moves = [r for r in actions if not (apart and "give" in r.payload)]
    faults = list(game.time_faults.order_by("due_seq"))
    if all(r.think_ms is None for r in actions) and not faults:
        return None
    limit = think_limit(game.table.round.stage.tournament)
    clock: dict[str, Any] = {
        "limit_ms": None if limit is None else limit * 1000,
        "think_ms": [r.think_ms for r in moves],
    }
    if gives:
        clock["exchange_think_ms"] = [r.think_ms for r in gives]
    clock["faults"] = [_fault(fault, rows, apart) for fault in faults]
    return clock


def _fault(fault: TimeFault, rows: list[Move], apart: bool) -> dict[str, Any]:
    # The decision's index in the record's moves: how many moves were in force when it was due.
    before = effective_actions([r for r in rows if r.seq <= fault.due_seq])
    item: dict[str, Any] = {
        "move": sum(1 for r in before if not (apart and "give" in r.payload)),
        "seat": fault.seat,
        "rule": fault.rule,
        "think_ms": fault.think_ms,
    }
    if fault.penalty is not None and fault.penalty.points:
        item["points"] = fault.penalty.points
    return item


@dataclass(slots=True)
class ClockUse:
    """A player's think times in one tournament, over the games that have ended."""

    limit: int | None
    timed: int = 0
    total_ms: int = 0
    longest_ms: int = 0
    over_limit: int = 0
    faults: int = 0

    @property
    def mean_seconds(self) -> float:
        return self.total_ms / self.timed / 1000 if self.timed else 0.0

    @property
    def longest_seconds(self) -> float:
        return self.longest_ms / 1000


def clock_use_by_tournament(player_id: int) -> dict[int, ClockUse]:
    """Per tournament: the player's decisions timed, their mean and longest think time, those
    over the limit, and the time faults called on them — from games that have ended only, so
    nothing of a game in play is shown."""
    seats = Seat.objects.filter(entry__player_id=player_id).exclude(
        entry__tournament__status=Tournament.Status.DRAFT
    )
    positions = {
        table_id: (position, tournament_id)
        for table_id, position, tournament_id in seats.values_list(
            "table_id", "position", "entry__tournament_id"
        )
    }
    games = (
        Game.objects.filter(
            table_id__in=list(positions),
            status__in=(Game.Status.FINISHED, Game.Status.CONFIRMED),
        )
        .exclude(mode=Game.Mode.QUICK)
        .select_related("table__round__stage__tournament")
        .prefetch_related("moves", "time_faults")
    )
    uses: dict[int, ClockUse] = {}
    for game in games:
        position, tournament_id = positions[game.table_id]
        seat = seat_at(game, position)
        if seat is None:
            continue
        use = uses.get(tournament_id)
        if use is None:
            use = uses[tournament_id] = ClockUse(think_limit(game.table.round.stage.tournament))
        for row in effective_actions(list(game.moves.all())):
            if row.seat != seat or row.think_ms is None:
                continue
            use.timed += 1
            use.total_ms += row.think_ms
            use.longest_ms = max(use.longest_ms, row.think_ms)
            if use.limit is not None and row.think_ms > use.limit * 1000:
                use.over_limit += 1
        use.faults += sum(1 for fault in game.time_faults.all() if fault.seat == seat)
    return {t: use for t, use in uses.items() if use.timed or use.faults}
