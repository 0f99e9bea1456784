"""An independent recount of standings in plain Python, straight from `GameResult` rows.

It shares nothing with `scoring.standings` but the meaning of the tie-break key names, so a
mistake in the SQL shows up as a difference here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from games.models import GameResult

BETTER_IS_MORE = {"points", "daifugo", "fugo", "heimin", "hinmin", "best_set"}
KEY_FIELD = {
    "points": "points",
    "daifugo": "daifugo",
    "fugo": "fugo",
    "heimin": "heimin",
    "hinmin": "hinmin",
    "fewer_daihinmin": "daihinmin",
    "fewer_fouls": "fouls",
    "fewer_miyako_ochi": "miyako_ochi",
    "best_set": "best_set",
}


def recount(
    results: Iterable[GameResult],
    keys: Sequence[str],
    *,
    by_player: bool = False,
    zero: Iterable[int] = (),
) -> dict[int, dict[str, Any]]:
    """{competitor id: line with rank and shared} for `results` ranked by `keys`."""
    lines: dict[int, dict[str, Any]] = {}
    sets: dict[int, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))

    def line(who: int) -> dict[str, Any]:
        return lines.setdefault(
            who,
            {
                "points": 0,
                "games": 0,
                "daifugo": 0,
                "fugo": 0,
                "heimin": 0,
                "hinmin": 0,
                "daihinmin": 0,
                "fouls": 0,
                "miyako_ochi": 0,
                "best_set": None,
            },
        )

    for who in zero:
        line(who)
    for r in results:
        who = r.entry.player_id if by_player else r.entry_id
        item = line(who)
        item["points"] += r.points
        item["games"] += 1
        if r.title:
            item[r.title] += 1
        item["fouls"] += int(r.foul)
        item["miyako_ochi"] += int(r.miyako_ochi)
        sets[who][(r.game.table_id, r.game.set_number)] += r.points
    for who, per_set in sets.items():
        lines[who]["best_set"] = max(per_set.values())

    def sort_key(who: int) -> tuple[float, ...]:
        out = []
        for key in keys:
            value = lines[who][KEY_FIELD[key]]
            if value is None:
                value = -(10**9)
            out.append(-value if key in BETTER_IS_MORE else value)
        return tuple(out)

    keyed = {who: sort_key(who) for who in lines}
    for who, k in keyed.items():
        lines[who]["rank"] = 1 + sum(1 for other in keyed.values() if other < k)
        lines[who]["shared"] = sum(1 for other in keyed.values() if other == k) > 1
    return lines


def as_lines(rows: Iterable[Any], *, by_player: bool = False) -> dict[int, dict[str, Any]]:
    """`Standing` rows in the oracle's shape."""
    fields = ("points", "games", "daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls")
    return {
        (row.player_id if by_player else row.entry_id): {
            **{f: getattr(row, f) for f in fields},
            "miyako_ochi": row.miyako_ochi,
            "best_set": row.best_set,
            "rank": row.rank,
            "shared": bool(row.shared),
        }
        for row in rows
    }
