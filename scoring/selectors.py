"""Reading the public boards (順位表) as plain rows: one page for the screen, every row for print
and exports, and the figures computed over the whole field.

At 10,000 entrants a board built from `Standing` instances with their player and entry, and a
template over all of them, took seconds and weighed megabytes. Here a row is a `values()` dict
(the `Standing` columns the boards show, with `player_name` and `entry_number`), the screen
reads one page of them, and what needs the whole field — the cut line, the places a playoff
decided — reads only the few columns it compares (`FieldRows`), and only when it is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any, overload

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Sum

from scoring.cuts import CutLine, cut_line
from scoring.models import Rating, RatingPoint, Scope, Standing, TeamStanding
from scoring.standings import (
    TIE_BREAK_COLUMNS,
    ScopeRef,
    decided_by_playoff,
    scope_filter,
    scope_metrics,
)
from scoring.team_standings import TEAM_SCOPES, team_scope_filter
from tournaments.models import Entry, Player, Stage, Team, Tournament
from tournaments.points import metric_words

Row = dict[str, Any]

# The board's order, as `scoring.standings.standings` gives it.
BOARD_ORDER = ("rank", "player__display_name", "player_id")
# The figures of a standings row, as the board shows them and the exports write them.
FIGURES = (
    "points",
    "games",
    "metrics",  # the family's metric counts by key (大富豪: titles, fouls, 都落ち)
    "best_set",
    "penalty_points",
    "warnings",
    "provisional_games",
    "confirmed_points",
    "confirmed_rank",
    # Duplicate Daifugo's par total and the games it counts (None: no duplicate game in scope).
    "duplicate_points",
    "duplicate_games",
)
# The `Standing` columns a board row shows (with `player_name` and `entry_number`).
ROW_FIELDS = ("rank", "shared", "entry_id", "player_id", *FIGURES)
# What the cut line and the playoff flags compare, for every row of the scope.
FIELD_COLUMNS = (
    "entry_id",
    "rank",
    "confirmed_rank",
    "provisional_games",
    "reached_stage_id",
    *TIE_BREAK_COLUMNS,
)
# Matches "find a player" lists at most (a longer list is no help; the reader types more).
FIND_LIMIT = 20


def page_size() -> int:
    """Rows on one page of a public board (``LEADERBOARD_PAGE_SIZE``, 100 by default)."""
    return int(getattr(settings, "LEADERBOARD_PAGE_SIZE", 100))


def board_rows(ref: ScopeRef) -> QuerySet[Standing, Row]:
    """The scope's rows in board order, as plain dicts (slice it for a page)."""
    rows: QuerySet[Standing, Row] = (
        Standing.objects.filter(**scope_filter(ref))
        .order_by(*BOARD_ORDER)
        .values(
            *ROW_FIELDS,
            player_name=F("player__display_name"),
            player_bot=F("player__bot_name"),
            entry_number=F("entry__number"),
            reached_stage_name=F("reached_stage__name"),
        )
    )
    return rows


@dataclass(frozen=True, slots=True)
class FieldSummary:
    """What the whole field says about itself: its size and its provisional results."""

    count: int
    provisional_games: int
    # Some row has a duplicate score: the boards show the 「デュプリ」 column.
    duplicate: bool = False

    def pages(self, size: int) -> int:
        return max(1, -(-self.count // size))


def summarise_field(ref: ScopeRef) -> FieldSummary:
    found = Standing.objects.filter(**scope_filter(ref)).aggregate(
        count=Count("pk"),
        provisional=Sum("provisional_games"),
        duplicate=Count("pk", filter=Q(duplicate_points__isnull=False)),
    )
    return FieldSummary(found["count"], found["provisional"] or 0, found["duplicate"] > 0)


class FieldRows(Sequence[Standing]):
    """Every row of the scope in board order, with only the columns the cut line and the
    playoff flags compare (no player, no entry), read the first time they are looked at: a
    tournament board with no settled playoff never reads them (`decided_by_playoff` returns
    before), and at 10,000 entrants they are most of a page's cost."""

    def __init__(self, ref: ScopeRef) -> None:
        self.ref = ref

    @cached_property
    def rows(self) -> list[Standing]:
        rows = Standing.objects.filter(**scope_filter(self.ref)).order_by(*BOARD_ORDER)
        return list(rows.only(*FIELD_COLUMNS))

    @overload
    def __getitem__(self, index: int) -> Standing: ...
    @overload
    def __getitem__(self, index: slice) -> list[Standing]: ...
    def __getitem__(self, index: int | slice) -> Standing | list[Standing]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)


@dataclass(frozen=True, slots=True)
class FieldFigures:
    """Figures over the whole field that every page of a board shows: the stage's cut line
    (None for a tournament or a season) and the entries whose place a playoff decided."""

    cut: CutLine | None
    decided: frozenset[int]


def field_figures(ref: ScopeRef, stage: Stage | None) -> FieldFigures:
    rows = FieldRows(ref)
    return FieldFigures(
        cut=cut_line(stage, rows.rows) if stage is not None else None,
        decided=decided_by_playoff(ref, rows),
    )


@dataclass(frozen=True, slots=True)
class MetricColumn:
    """A column of the family's metrics on a board: its `Metric.key` and its head."""

    key: str
    label: str


def metric_columns(ref: ScopeRef, tie_break_keys: Sequence[str]) -> list[MetricColumn]:
    """The metric columns a board shows: those its tie-breaks rank on, in the family's order
    (the counts that decide who is ahead when points are level); every metric is in the
    exports."""
    return [
        MetricColumn(m.key, str(metric_words(m.key).head))
        for m in scope_metrics(ref)
        if m.tie_break in tie_break_keys
    ]


def with_metric_values(rows: Iterable[Row], columns: Sequence[MetricColumn]) -> list[Row]:
    """The rows, each with `metric_values`: its counts for `columns`, in their order."""
    return [
        {**row, "metric_values": [(row.get("metrics") or {}).get(c.key, 0) for c in columns]}
        for row in rows
    ]


def flag_decided(rows: Iterable[Row], decided: frozenset[int]) -> list[Row]:
    """The rows, each with `decided_by_playoff` set (see `Standing.decided_by_playoff`)."""
    return [{**row, "decided_by_playoff": row["entry_id"] in decided} for row in rows]


def rows_before(ref: ScopeRef, row: Row) -> int:
    """How many rows come before `row` in board order (its place on the board, from 0)."""
    rank, name, player = row["rank"], row["player_name"], row["player_id"]
    return (
        Standing.objects.filter(**scope_filter(ref))
        .filter(
            Q(rank__lt=rank)
            | Q(rank=rank, player__display_name__lt=name)
            | Q(rank=rank, player__display_name=name, player_id__lt=player)
        )
        .count()
    )


def find_rows(ref: ScopeRef, text: str) -> list[Row]:
    """The rows of the entrant whose entry number `text` is (``23`` or ``#23``), else of the
    players whose name (or kana) contains it; at most `FIND_LIMIT` + 1 (one more says there
    are more), in board order, each with the `page` of the board it is on. A season's rows
    are per player, not entry: there a number is looked for in the names."""
    text = text.strip()
    if not text:
        return []
    number = text.removeprefix("#")
    if number.isdigit() and ref.kind != Scope.SEASON:
        matches = Q(entry__number=int(number))
    else:
        matches = Q(player__display_name__icontains=text) | Q(player__name_kana__icontains=text)
    size = page_size()
    found = list(board_rows(ref).filter(matches)[: FIND_LIMIT + 1])
    return [{**row, "page": rows_before(ref, row) // size + 1} for row in found]


# --- team standings (掼蛋 Guandan team events) -----------------------------------------------

# The `TeamStanding` columns a team board row shows (with the team's number, name, members).
TEAM_ROW_FIELDS = (
    "rank",
    "shared",
    "team_id",
    *TeamStanding.RECORD_FIELDS,
    "in_play",
)


def signed(number: int) -> str:
    """A difference as boards print it: +3, −3 (a minus sign), 0."""
    if number > 0:
        return f"+{number}"
    return f"\u2212{-number}" if number < 0 else "0"


def signed_par(value: Decimal | None) -> str:
    """A duplicate score as boards print it: +1.50, −1.33 (a minus sign), 0.00; "—" for none."""
    if value is None:
        return "—"
    if value > 0:
        return f"+{value:.2f}"
    return f"\u2212{-value:.2f}" if value < 0 else f"{0:.2f}"


def team_board_rows(ref: ScopeRef) -> list[Row]:
    """The scope's team lines in board order (rank, then team number) as plain rows, each
    with its team's number, name and members (by entry number) and, for a match in play, the
    opponent's number and name; empty for a scope without team standings."""
    if ref.kind not in TEAM_SCOPES:
        return []
    rows = list(
        TeamStanding.objects.filter(**team_scope_filter(ref.kind, ref.id))
        .order_by("rank", "team__number")
        .values(*TEAM_ROW_FIELDS, team_number=F("team__number"), team_name=F("team__name"))
    )
    if not rows:
        return rows
    tournament_id = TeamStanding.objects.filter(**team_scope_filter(ref.kind, ref.id)).values_list(
        "tournament_id", flat=True
    )[0]
    teams = {
        pk: (number, name)
        for pk, number, name in Team.objects.filter(tournament_id=tournament_id).values_list(
            "pk", "number", "name"
        )
    }
    members: dict[int, list[str]] = {}
    for team_id, name in (
        Entry.objects.filter(team__tournament_id=tournament_id)
        .order_by("number")
        .values_list("team_id", "player__display_name")
    ):
        members.setdefault(team_id, []).append(name)
    for row in rows:
        row["members"] = members.get(row["team_id"], [])
        row["level_difference_text"] = signed(row["level_difference"])
        if row["in_play"]:
            opponent = row["in_play"]["opponent"]
            row["in_play"] = {
                **row["in_play"],
                "opponent_number": teams.get(opponent, (None, ""))[0],
                "opponent_name": teams.get(opponent, (None, ""))[1],
            }
    return rows


# Ratings across events (docs/ratings.md) ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingRow:
    rank: int
    player: Player
    rating: int
    spread: int
    games_in_scope: int
    games: int


def rating_leaderboard(tournaments: QuerySet[Tournament]) -> list[RatingRow]:
    """The players who played rated games in `tournaments` (a league's, a season's), best
    rating first: their rating across every rated event, and their rated games in scope. Equal
    displayed ratings share a rank."""
    in_scope = dict(
        RatingPoint.objects.filter(tournament__in=tournaments.values("pk"))
        .values_list("player")
        .annotate(games=Count("pk"))
        .values_list("player", "games")
    )
    ratings = Rating.objects.filter(player_id__in=list(in_scope)).select_related("player")
    ordered = sorted(ratings, key=lambda r: (-r.display, r.player.display_name, r.player_id))
    rows: list[RatingRow] = []
    for index, rating in enumerate(ordered):
        shared = rows and rows[-1].rating == rating.display
        rows.append(
            RatingRow(
                rank=rows[-1].rank if shared else index + 1,
                player=rating.player,
                rating=rating.display,
                spread=rating.display_spread,
                games_in_scope=in_scope[rating.player_id],
                games=rating.games,
            )
        )
    return rows


def rating_history(player: Player) -> list[RatingPoint]:
    """The player's rating after each rated game, in the order they were rated."""
    return list(
        RatingPoint.objects.filter(player=player).select_related("tournament").order_by("sequence")
    )
