"""Standings as CSV and JSON (exports, embeds, webhook payloads): public fields only."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from scoring.models import Standing

COLUMNS = (
    "rank",
    "shared",
    "entry",
    "player",
    "points",
    "games",
    "daifugo",
    "fugo",
    "heimin",
    "hinmin",
    "daihinmin",
    "fouls",
    "miyako_ochi",
    "best_set",
)


def standing_dict(row: Standing) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "shared": bool(row.shared),
        "entry": row.entry.number if row.entry is not None else None,
        "player": row.player.display_name,
        "player_id": row.player_id,
        "points": row.points,
        "games": row.games,
        "daifugo": row.daifugo,
        "fugo": row.fugo,
        "heimin": row.heimin,
        "hinmin": row.hinmin,
        "daihinmin": row.daihinmin,
        "fouls": row.fouls,
        "miyako_ochi": row.miyako_ochi,
        "best_set": row.best_set,
    }


def standings_csv(rows: Sequence[Standing]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for row in rows:
        data = standing_dict(row)
        writer.writerow(["" if data[c] is None else data[c] for c in COLUMNS])
    return out.getvalue()
