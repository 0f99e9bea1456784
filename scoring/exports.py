"""Standings as CSV and JSON (exports, embeds, webhook payloads): public fields only.

Each row says how much of it is provisional (暫定): `provisional_games` of its `games` are
finished but not yet confirmed by a second official, and `confirmed_points` (with
`confirmed_rank`) count confirmed results only — what cut lines use. `points` are net of the
active penalty deductions (`penalty_points`); `warnings` counts active warnings.
`decided_by_playoff` marks rows whose place among level entrants a settled playoff
(順位決定戦) decided (its games add nothing to `points`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from config.spreadsheet import spreadsheet_cell
from scoring.models import Standing
from scoring.selectors import FIGURES, ROW_FIELDS, board_rows, field_figures, flag_decided
from scoring.standings import RoundLine, ScopeRef, scope_rounds

COLUMNS = ("rank", "shared", "entry", "player", *FIGURES, "decided_by_playoff")
# The CSV's header row, for people opening it in a spreadsheet: in the active language (the
# English headers are the field names, as in the JSON export).
COLUMN_HEADERS: dict[str, Promise] = {
    "rank": pgettext_lazy("CSV column", "rank"),
    "shared": pgettext_lazy("CSV column", "shared"),
    "entry": pgettext_lazy("CSV column", "entry"),
    "player": pgettext_lazy("CSV column", "player"),
    "points": pgettext_lazy("CSV column", "points"),
    "games": pgettext_lazy("CSV column", "games"),
    "daifugo": pgettext_lazy("CSV column", "daifugo"),
    "fugo": pgettext_lazy("CSV column", "fugo"),
    "heimin": pgettext_lazy("CSV column", "heimin"),
    "hinmin": pgettext_lazy("CSV column", "hinmin"),
    "daihinmin": pgettext_lazy("CSV column", "daihinmin"),
    "fouls": pgettext_lazy("CSV column", "fouls"),
    "miyako_ochi": pgettext_lazy("CSV column", "miyako_ochi"),
    "best_set": pgettext_lazy("CSV column", "best_set"),
    "penalty_points": pgettext_lazy("CSV column", "penalty_points"),
    "warnings": pgettext_lazy("CSV column", "warnings"),
    "provisional_games": pgettext_lazy("CSV column", "provisional_games"),
    "confirmed_points": pgettext_lazy("CSV column", "confirmed_points"),
    "confirmed_rank": pgettext_lazy("CSV column", "confirmed_rank"),
    "decided_by_playoff": pgettext_lazy("CSV column", "decided_by_playoff"),
}


def row_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    """One exported row from a board row (`scoring.selectors.board_rows`, with its
    `decided_by_playoff` flag): the fields of the JSON export and, in `COLUMNS` order, the
    CSV's."""
    return {
        "rank": row["rank"],
        "shared": bool(row["shared"]),
        "entry": row["entry_number"],
        "player": row["player_name"],
        "player_id": row["player_id"],
        "points": row["points"],
        "games": row["games"],
        "daifugo": row["daifugo"],
        "fugo": row["fugo"],
        "heimin": row["heimin"],
        "hinmin": row["hinmin"],
        "daihinmin": row["daihinmin"],
        "fouls": row["fouls"],
        "miyako_ochi": row["miyako_ochi"],
        "best_set": row["best_set"],
        "penalty_points": row["penalty_points"],
        "warnings": row["warnings"],
        "provisional": row["provisional_games"] > 0,
        "provisional_games": row["provisional_games"],
        "confirmed_points": row["confirmed_points"],
        "confirmed_rank": row["confirmed_rank"],
        # Placed among entrants level on every tie-break by a settled playoff (順位決定戦).
        "decided_by_playoff": bool(row["decided_by_playoff"]),
    }


def standing_dict(row: Standing) -> dict[str, Any]:
    """`row_dict` of a `Standing` read with its player and entry (webhook payloads)."""
    values = {name: getattr(row, name) for name in ROW_FIELDS}
    return row_dict(
        {
            **values,
            "player_name": row.player.display_name,
            "entry_number": row.entry.number if row.entry is not None else None,
            "decided_by_playoff": row.decided_by_playoff,
        }
    )


def rounds_data(rounds: Sequence[RoundLine]) -> dict[str, Any]:
    """The scope's rounds for JSON payloads: each round's status, and whether all are complete
    (every result final)."""
    return {
        "complete": bool(rounds) and all(line.complete for line in rounds),
        "rounds": [line.as_dict() for line in rounds],
    }


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The CSV export of board rows (`row_dict`), its header row in the active language. Every
    cell goes through `spreadsheet_cell`: a player's name cannot be a formula."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([str(COLUMN_HEADERS[c]) for c in COLUMNS])
    for row in rows:
        data = row_dict(row)
        writer.writerow(["" if data[c] is None else spreadsheet_cell(data[c]) for c in COLUMNS])
    return out.getvalue()


def export_rows(ref: ScopeRef) -> list[dict[str, Any]]:
    """Every row of the scope, in board order, as plain rows flagged as the boards flag them."""
    return flag_decided(board_rows(ref), field_figures(ref, None).decided)


def standings_json(ref: ScopeRef, title: str, version: int) -> dict[str, Any]:
    """The JSON export: the scope, its version and rounds, and every row (`row_dict`)."""
    return {
        "scope": {"kind": ref.kind, "id": ref.id},
        "title": title,
        "version": version,
        **rounds_data(scope_rounds(ref)),
        "standings": [row_dict(row) for row in export_rows(ref)],
    }
