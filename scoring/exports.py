"""Standings as CSV and JSON (exports, embeds, webhook payloads): public fields only.

Each row says how much of it is provisional (暫定): `provisional_games` of its `games` are
finished but not yet confirmed by a second official, and `confirmed_points` (with
`confirmed_rank`) count confirmed results only — what cut lines use. `points` are net of the
active penalty deductions (`penalty_points`); `warnings` counts active warnings.
`duplicate_points` / `duplicate_games`: duplicate Daifugo's par (docs/duplicate.md), null where
the scope has no duplicate game (the CSV then leaves the two columns out).
`decided_by_playoff` marks rows whose place among level entrants a settled playoff
(順位決定戦) decided (its games add nothing to `points`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from config.spreadsheet import csv_text
from games.engine import Metric
from scoring.models import Scope, Standing, TeamStanding
from scoring.selectors import (
    FIGURES,
    ROW_FIELDS,
    board_rows,
    field_figures,
    flag_decided,
    team_board_rows,
)
from scoring.standings import RoundLine, ScopeRef, order_caption, order_steps, scope_rounds
from tournaments.points import metric_words

# Written after `COLUMNS` when the scope has duplicate games (docs/duplicate.md).
DUPLICATE_COLUMNS = ("duplicate_points", "duplicate_games")
# Written last, so that every earlier column keeps its place: the stage each entrant reached.
LAST_COLUMNS = ("reached_stage",)
# The CSV's columns: these, with one column per metric of the scope's family after "games"
# (`csv_columns`); the JSON has the same fields and `metrics` besides.
COLUMNS = (
    "rank",
    "shared",
    "entry",
    "player",
    *(f for f in FIGURES if f not in ("metrics", *DUPLICATE_COLUMNS)),
    "decided_by_playoff",
)
# The CSV's header row, for people opening it in a spreadsheet: in the active language (the
# English headers are the field names, as in the JSON export).
COLUMN_HEADERS: dict[str, Promise] = {
    "rank": pgettext_lazy("CSV column", "rank"),
    "shared": pgettext_lazy("CSV column", "shared"),
    "entry": pgettext_lazy("CSV column", "entry"),
    "player": pgettext_lazy("CSV column", "player"),
    "reached_stage": pgettext_lazy("CSV column", "reached_stage"),
    "points": pgettext_lazy("CSV column", "points"),
    "games": pgettext_lazy("CSV column", "games"),
    "best_set": pgettext_lazy("CSV column", "best_set"),
    "penalty_points": pgettext_lazy("CSV column", "penalty_points"),
    "warnings": pgettext_lazy("CSV column", "warnings"),
    "provisional_games": pgettext_lazy("CSV column", "provisional_games"),
    "confirmed_points": pgettext_lazy("CSV column", "confirmed_points"),
    "confirmed_rank": pgettext_lazy("CSV column", "confirmed_rank"),
    "decided_by_playoff": pgettext_lazy("CSV column", "decided_by_playoff"),
    "duplicate_points": pgettext_lazy("CSV column", "duplicate_points"),
    "duplicate_games": pgettext_lazy("CSV column", "duplicate_games"),
}


def row_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    """One exported row from a board row (`scoring.selectors.board_rows`, with its
    `decided_by_playoff` flag): the fields of the JSON export and, in `COLUMNS` order, the
    CSV's."""
    metrics = dict(row.get("metrics") or {})
    return {
        "rank": row["rank"],
        "shared": bool(row["shared"]),
        "entry": row["entry_number"],
        "player": row["player_name"],
        "player_id": row["player_id"],
        # The latest stage the entrant took part in (到達; null: a season, or no stage yet).
        "reached_stage": row.get("reached_stage_name"),
        "points": row["points"],
        "games": row["games"],
        # Each metric also as a field of its own, as the rows had them before metrics were the
        # family's (大富豪: daifugo … miyako_ochi); never in place of a field above or below.
        **{k: v for k, v in metrics.items() if k not in _FIELDS},
        "metrics": metrics,
        "best_set": row["best_set"],
        "penalty_points": row["penalty_points"],
        "warnings": row["warnings"],
        "provisional": row["provisional_games"] > 0,
        "provisional_games": row["provisional_games"],
        "confirmed_points": row["confirmed_points"],
        "confirmed_rank": row["confirmed_rank"],
        # Placed among entrants level on every tie-break by a settled playoff (順位決定戦).
        "decided_by_playoff": bool(row["decided_by_playoff"]),
        # Duplicate Daifugo's par total as a decimal string ("-1.33"; null: the scope has no
        # duplicate game) and the games it counts.
        "duplicate_points": _decimal_text(row.get("duplicate_points")),
        "duplicate_games": row.get("duplicate_games") or 0,
    }


def _decimal_text(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


# The generic fields of an exported row (a metric's own field never takes their place).
_FIELDS = frozenset(
    {
        *COLUMNS,
        *DUPLICATE_COLUMNS,
        *LAST_COLUMNS,
        "player_id",
        "provisional",
        "metrics",
        "advancing",
    }
)


def standing_dict(row: Standing) -> dict[str, Any]:
    """`row_dict` of a `Standing` read with its player and entry (webhook payloads)."""
    values = {name: getattr(row, name) for name in ROW_FIELDS}
    reached = row.reached_stage
    return row_dict(
        {
            **values,
            "reached_stage_name": reached.name if reached is not None else None,
            "player_name": row.player.display_name,
            "entry_number": row.entry.number if row.entry is not None else None,
            "decided_by_playoff": row.decided_by_playoff,
        }
    )


def order_data(ref: ScopeRef) -> dict[str, Any] | None:
    """How the tournament's rank is built (`scoring.standings.order_steps`), for JSON
    payloads: its caption in the active language and its steps; None for a stage or a season
    (ranked by their own standings)."""
    if ref.kind != Scope.TOURNAMENT:
        return None
    steps = order_steps(ref.id)
    return {
        "caption": order_caption(steps),
        "steps": [
            {"stages": list(step.names), "by": "totals" if step.by_totals else "stage"}
            for step in steps
        ],
    }


def rounds_data(rounds: Sequence[RoundLine]) -> dict[str, Any]:
    """The scope's rounds for JSON payloads: each round's status, and whether all are complete
    (every result final)."""
    return {
        "complete": bool(rounds) and all(line.complete for line in rounds),
        "rounds": [line.as_dict() for line in rounds],
    }


def csv_columns(metrics: Sequence[Metric], duplicate: bool = False) -> list[str]:
    """The CSV's columns: `COLUMNS` with the family's metrics after "games", the duplicate
    score's two when the scope has duplicate games, and `LAST_COLUMNS`."""
    at = COLUMNS.index("games") + 1
    extra = DUPLICATE_COLUMNS if duplicate else ()
    return [*COLUMNS[:at], *(m.key for m in metrics), *COLUMNS[at:], *extra, *LAST_COLUMNS]


def standings_csv(rows: Iterable[Mapping[str, Any]], metrics: Sequence[Metric]) -> list[list[str]]:
    """The CSV export's table (`config.spreadsheet.csv_bytes` writes it) of board rows
    (`row_dict`): its header row in the active language, one column per metric of the
    scope's family (`metrics`). Every cell is a `config.spreadsheet.cell_text`: a flag is a
    word in the reader's language, a player's name cannot be a formula."""
    rows = list(rows)
    columns = csv_columns(metrics, any(r.get("duplicate_points") is not None for r in rows))
    keys = {m.key for m in metrics}
    header = [COLUMN_HEADERS.get(c) or metric_words(c).csv for c in columns]
    body = []
    for row in rows:
        data = row_dict(row)
        body.append([data["metrics"].get(c, 0) if c in keys else data[c] for c in columns])
    return csv_text(header, body)


def export_rows(ref: ScopeRef) -> list[dict[str, Any]]:
    """Every row of the scope, in board order, as plain rows flagged as the boards flag them."""
    return flag_decided(board_rows(ref), field_figures(ref, None).decided)


def standings_json(ref: ScopeRef, title: str, version: int) -> dict[str, Any]:
    """The JSON export: the scope, its version and rounds, and every row (`row_dict`)."""
    return {
        "scope": {"kind": ref.kind, "id": ref.id},
        "title": title,
        "version": version,
        "order": order_data(ref),
        **rounds_data(scope_rounds(ref)),
        "standings": [row_dict(row) for row in export_rows(ref)],
        # A team tournament's team lines (`team_row_dict`); empty for everyone else.
        "team_standings": [team_row_dict(row) for row in team_board_rows(ref)],
    }


# --- team standings (掼蛋 Guandan team events) -----------------------------------------------

TEAM_COLUMNS = (
    "rank",
    "shared",
    "team",
    "team_name",
    "members",
    *TeamStanding.RECORD_FIELDS,
)
TEAM_COLUMN_HEADERS: dict[str, Promise] = {
    "rank": pgettext_lazy("CSV column", "rank"),
    "shared": pgettext_lazy("CSV column", "shared"),
    "team": pgettext_lazy("CSV column", "team"),
    "team_name": pgettext_lazy("CSV column", "team_name"),
    "members": pgettext_lazy("CSV column", "members"),
    "match_points": pgettext_lazy("CSV column", "match_points"),
    "played": pgettext_lazy("CSV column", "played"),
    "wins": pgettext_lazy("CSV column", "wins"),
    "draws": pgettext_lazy("CSV column", "draws"),
    "losses": pgettext_lazy("CSV column", "losses"),
    "byes": pgettext_lazy("CSV column", "byes"),
    "level_difference": pgettext_lazy("CSV column", "level_difference"),
    "opponents_strength": pgettext_lazy("CSV column", "opponents_strength"),
    "provisional_matches": pgettext_lazy("CSV column", "provisional_matches"),
}


def team_row_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    """One exported team line from a team board row (`scoring.selectors.team_board_rows`):
    the API's fields and, in `TEAM_COLUMNS` order, the CSV's. A match in play names its
    opponent by team number, with the levels as they stand (nothing of any hand)."""
    in_play = row["in_play"]
    return {
        "rank": row["rank"],
        "shared": bool(row["shared"]),
        "team": row["team_number"],
        "team_name": row["team_name"],
        "members": list(row["members"]),
        "match_points": row["match_points"],
        "played": row["played"],
        "wins": row["wins"],
        "draws": row["draws"],
        "losses": row["losses"],
        "byes": row["byes"],
        "level_difference": row["level_difference"],
        "opponents_strength": row["opponents_strength"],
        "provisional": row["provisional_matches"] > 0,
        "provisional_matches": row["provisional_matches"],
        "in_play": (
            {
                "table": in_play["table"],
                "opponent": in_play["opponent_number"],
                "opponent_name": in_play["opponent_name"],
                "levels": list(in_play["levels"]),
                "hands": in_play["hands"],
            }
            if in_play
            else None
        ),
    }


def team_standings_csv(rows: Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """The team CSV export's table of team board rows, its header row in the active language;
    every cell a `config.spreadsheet.cell_text` (a team's or a player's name cannot be a
    formula)."""
    body = []
    for row in rows:
        data = team_row_dict(row)
        data["members"] = " / ".join(data["members"])
        body.append([data[c] for c in TEAM_COLUMNS])
    return csv_text([TEAM_COLUMN_HEADERS[c] for c in TEAM_COLUMNS], body)
