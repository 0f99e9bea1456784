"""Read-only queries for following a round (the officials' progress dashboard) and its paper
(score sheets, the results sheet).

The dashboard is polled every few seconds by every organiser and head referee watching, so the
whole round is read in a fixed number of queries whatever its size: its tables (with referees
and seats), its games with their move counts and last move time (one aggregate query; the
hands and snapshots are never loaded), and the round's blockers.

A team event's table (掼蛋 Guandan) plays one match of up to `games_per_set` hands that may end
early (won at A, the time limit): its row is the match as `games.matches` reads it — the hands
played, both levels, in play or over and why — with one slot for the next hand while the match
goes on, never the cap's empty slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import ClassVar

from django.db.models import Max, Prefetch
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django_stubs_ext import StrOrPromise

from games.engine.guandan import format_level
from games.matches import HANDS_PLAYED, TIME_UP, WON_AT_ACE, over_because, table_matches
from games.models import Game, GameResult
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.selectors import Blocker, round_blockers

# Wrong PINs after which a table's PIN stops working (games.services.PIN_ATTEMPTS, repeated
# here so tournaments need not import the games services; a test keeps them equal).
PIN_ATTEMPTS = 5


@dataclass
class Cell:
    """One game of a table's round grid (set × game): its latest attempt and earlier voided
    attempts."""

    set_number: int
    game_number: int
    game: Game | None = None
    voided: list[Game] = field(default_factory=list)

    LABELS: ClassVar[dict[str, StrOrPromise]] = {
        "not_started": gettext_lazy("not started"),
        "in_play": gettext_lazy("in play"),
        "undo_pending": gettext_lazy("undo waits for the head referee"),
        "finished": gettext_lazy("waiting for confirmation"),
        "confirmed": gettext_lazy("confirmed"),
        "forfeit": gettext_lazy("forfeit"),
        "void": gettext_lazy("void"),
        "redeal_pending": gettext_lazy("void, to be re-dealt"),
    }

    @property
    def state(self) -> str:
        game = self.game
        if game is None:
            return "not_started"
        if game.status == Game.Status.VOID:
            return "redeal_pending" if game.redeal else "void"
        if game.status == Game.Status.IN_PLAY:
            return "undo_pending" if game.undo_pending_seq is not None else "in_play"
        if game.forfeit_seat is not None:
            return "forfeit"
        return "confirmed" if game.status == Game.Status.CONFIRMED else "finished"

    @property
    def label(self) -> str:
        """The game's state in the page's language."""
        return str(self.LABELS[self.state])

    @property
    def settled(self) -> bool:
        return self.state in ("confirmed", "forfeit", "void")

    @property
    def moves(self) -> int:
        return self.game.last_seq if self.game is not None else 0

    @property
    def last_activity(self) -> datetime | None:
        game = self.game
        if game is None:
            return None
        times = [
            t
            for t in (
                getattr(game, "last_move_at", None),
                game.created_at,
                game.finished_at,
                game.confirmed_at,
                game.voided_at,
            )
            if t is not None
        ]
        return max(times) if times else None


@dataclass(frozen=True)
class MatchProgress:
    """A team event's table: its match as its hands leave it (`games.matches.TableMatch`)."""

    hands: int  # counted hands (finished or confirmed, not void)
    levels: tuple[str, str]  # engine team 0's and team 1's level, as players say them
    teams: tuple[str, str]  # the two teams' names ("" for a seat without a team)
    in_play: bool
    winner: int | None  # the engine team that won at A
    over: str | None  # why the match is over (`games.matches.over_because`), None: it goes on

    @property
    def state(self) -> str:
        """The match in words, in the page's language."""
        if self.in_play:
            return gettext("in play")
        if self.over == WON_AT_ACE and self.winner is not None:
            return gettext("%(team)s won at A") % {"team": self.teams[self.winner]}
        if self.over == HANDS_PLAYED:
            return gettext("over: every hand played")
        if self.over == TIME_UP:
            return gettext("over: time is up")
        return gettext("between hands: the next hand is to start")


@dataclass
class TableProgress:
    table: Table
    sets: list[list[Cell]]
    match: MatchProgress | None = None

    @property
    def cells(self) -> list[Cell]:
        return [cell for row in self.sets for cell in row]

    @property
    def done(self) -> bool:
        if self.match is not None and self.match.over is None:
            return False
        return all(cell.settled for cell in self.cells)

    @property
    def in_play(self) -> bool:
        return any(cell.state in ("in_play", "undo_pending") for cell in self.cells)

    @property
    def waiting(self) -> bool:
        return any(cell.state == "finished" for cell in self.cells)

    @property
    def settled_count(self) -> int:
        return sum(cell.settled for cell in self.cells)

    @property
    def pin_locked(self) -> bool:
        return self.table.pin_failures >= PIN_ATTEMPTS


@dataclass
class RoundProgress:
    round: Round
    tables: list[TableProgress]
    blockers: list[Blocker]

    @property
    def done(self) -> int:
        return sum(t.done for t in self.tables)

    @property
    def in_play(self) -> int:
        return sum(t.in_play for t in self.tables)

    @property
    def waiting(self) -> int:
        return sum(t.waiting for t in self.tables)

    @property
    def not_started(self) -> int:
        return sum(t.settled_count == 0 and not t.in_play and not t.waiting for t in self.tables)

    @property
    def summary(self) -> str:
        """How far the round has got, in the page's language."""
        return gettext(
            "%(done)s of %(count)s tables done, %(in_play)s in play, %(waiting)s waiting for "
            "confirmation"
        ) % {
            "done": self.done,
            "count": len(self.tables),
            "in_play": self.in_play,
            "waiting": self.waiting,
        }


def round_games(round_: Round) -> list[Game]:
    """Every game of the round, attempts in order, with `last_move_at`; never the hands."""
    return list(
        Game.objects.filter(table__round=round_)
        .defer("hands", "counts", "blind", "state_snapshot", "titles", "ruleset_overrides")
        .annotate(last_move_at=Max("moves__created_at"))
        .order_by("table_id", "set_number", "game_number", "attempt")
    )


def progress_tables(round_: Round) -> list[Table]:
    return list(
        round_.tables.select_related("referee")
        .prefetch_related(
            Prefetch(
                "seats",
                Seat.objects.select_related("entry__player", "entry__team").order_by("position"),
            )
        )
        .order_by("number")
    )


def _team_names(table: Table) -> tuple[str, str]:
    """The teams as the engine numbers them: team 0 at positions 1 and 3, team 1 at 2 and 4."""
    names = ["", ""]
    for seat in table.seats.all():
        team = seat.entry.team
        if team is not None:
            names[(seat.position - 1) % 2] = team.name
    return names[0], names[1]


def match_grids(
    tournament: Tournament, tables: list[Table], games: list[Game]
) -> list[TableProgress]:
    """A team event's tables: each a row of the hands its match has played (a re-dealt hand's
    voided attempts under it) and, while the match goes on between hands, the next hand's
    slot."""
    cells: dict[int, dict[tuple[int, int], Cell]] = {t.pk: {} for t in tables}
    for game in games:  # attempts in order: the last one is the hand's latest
        slots = cells.setdefault(game.table_id, {})
        cell = slots.setdefault(
            (game.set_number, game.game_number), Cell(game.set_number, game.game_number)
        )
        if cell.game is not None:
            cell.voided.append(cell.game)
        cell.game = game
    matches = table_matches(t.pk for t in tables)
    now = timezone.now()
    grids = []
    for table in tables:
        found = matches[table.pk]
        over = over_because(tournament, found, now)
        row = [cells[table.pk][k] for k in sorted(cells[table.pk])]
        waiting_redeal = any(c.state == "redeal_pending" for c in row)
        if over is None and not found.in_play and not waiting_redeal:
            last = row[-1].game_number if row else 0
            row.append(Cell(1, last + 1))
        match = MatchProgress(
            hands=found.hands,
            levels=(format_level(found.levels[0]), format_level(found.levels[1])),
            teams=_team_names(table),
            in_play=found.in_play,
            winner=found.winner,
            over=over,
        )
        grids.append(TableProgress(table, [row], match))
    return grids


def round_progress(round_: Round) -> RoundProgress:
    """Each table's grid of games (sets × games) with each game's state, in a fixed number of
    queries, and what still blocks completing the round. A team event's table shows its match
    instead (`match_grids`)."""
    tournament = round_.stage.tournament
    by_slot: dict[tuple[int, int, int], Cell] = {}
    tables = progress_tables(round_)
    blockers = round_blockers(round_) if round_.is_open else []
    if tournament.plays_in_teams:
        return RoundProgress(round_, match_grids(tournament, tables, round_games(round_)), blockers)
    grids = []
    for table in tables:
        sets = []
        for s in range(1, tournament.sets_per_round + 1):
            row = []
            for g in range(1, tournament.games_per_set + 1):
                cell = Cell(s, g)
                by_slot[(table.pk, s, g)] = cell
                row.append(cell)
            sets.append(row)
        grids.append(TableProgress(table, sets))
    for game in round_games(round_):
        slot = by_slot.get((game.table_id, game.set_number, game.game_number))
        if slot is None:
            continue
        if slot.game is not None:
            slot.voided.append(slot.game)
        slot.game = game
    return RoundProgress(round_, grids, blockers)


@dataclass
class SheetLine:
    """One entrant's line of a table on the results sheet: each game's result, the total."""

    seat: Seat
    results: list[GameResult | None]
    total: int


@dataclass
class SheetTable:
    table: Table
    slots: list[tuple[int, int]]
    lines: list[SheetLine]
    provisional: int


def results_sheet(round_: Round) -> list[SheetTable]:
    """Per table: each entrant's placing and points in every game that counts (void games are
    left out), and the round total (the sum of the points the results carry, as scoring sums
    them; penalties are not part of a round's result)."""
    tournament = round_.stage.tournament
    slots = [
        (s, g)
        for s in range(1, tournament.sets_per_round + 1)
        for g in range(1, tournament.games_per_set + 1)
    ]
    results: dict[tuple[int, int, int, int], GameResult] = {}
    provisional: dict[int, int] = {}
    rows = (
        GameResult.objects.filter(game__table__round=round_)
        .exclude(game__status=Game.Status.VOID)
        .select_related("game")
        .only(
            "seat",
            "place",
            "detail",
            "forfeit",
            "points",
            "entry_id",
            "game__table_id",
            "game__set_number",
            "game__game_number",
            "game__status",
            "game__forfeit_seat",
        )
    )
    for r in rows:
        game = r.game
        results[(game.table_id, game.set_number, game.game_number, r.entry_id)] = r
        if game.status == Game.Status.FINISHED and game.forfeit_seat is None and r.seat == 0:
            provisional[game.table_id] = provisional.get(game.table_id, 0) + 1
    totals: dict[int, int] = {}
    for (_table, _set, _game, entry_id), r in results.items():
        totals[entry_id] = totals.get(entry_id, 0) + r.points
    sheet = []
    for table in progress_tables(round_):
        lines = [
            SheetLine(
                seat,
                [results.get((table.pk, s, g, seat.entry_id)) for s, g in slots],
                totals.get(seat.entry_id, 0),
            )
            for seat in table.seats.all()
        ]
        sheet.append(SheetTable(table, slots, lines, provisional.get(table.pk, 0)))
    return sheet
