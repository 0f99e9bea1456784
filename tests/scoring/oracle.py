"""An independent recount of standings in plain Python, straight from `GameResult` rows (and
`Penalty` rows).

It shares nothing with `scoring.standings` but the meaning of the tie-break key names, so a
mistake in the SQL shows up as a difference here. The rules it recounts by:

- a result is provisional while its game is finished, not confirmed and not ended by a
  forfeit; `confirmed_*` and the confirmed rank count the other results only;
- an active (not withdrawn) deduction comes off both the points and the confirmed points; an
  active warning is counted. Which penalties belong to the scope is the caller's filter, as for
  the results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.models import GameResult
from tournaments.models import Penalty

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


# The counts a 大富豪 standing keeps (`Standing.metrics` keys).
COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")


def is_provisional(result: GameResult) -> bool:
    game = result.game
    return game.status == "finished" and game.forfeit_seat is None


def _tally(results: Iterable[GameResult], who_of: Callable[[GameResult], int]) -> dict[int, Any]:
    lines: dict[int, dict[str, Any]] = {}
    sets: dict[int, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    for r in results:
        who = who_of(r)
        item = lines.setdefault(who, _empty())
        item["points"] += r.points
        item["games"] += 1
        # 大富豪's result detail, read here by hand (not through the family's metrics).
        if r.detail.get("title"):
            item[r.detail["title"]] += 1
        item["fouls"] += int(r.detail.get("foul") is True)
        item["miyako_ochi"] += int(r.detail.get("miyako_ochi") is True)
        sets[who][(r.game.table_id, r.game.set_number)] += r.points
    for who, per_set in sets.items():
        lines[who]["best_set"] = max(per_set.values())
    return lines


def _empty() -> dict[str, Any]:
    return {
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
    }


def _ranks(lines: dict[int, dict[str, Any]], keys: Sequence[str]) -> dict[int, tuple[int, bool]]:
    def sort_key(who: int) -> tuple[float, ...]:
        out = []
        for key in keys:
            value = lines[who][KEY_FIELD[key]]
            if value is None:
                value = -(10**9)
            out.append(-value if key in BETTER_IS_MORE else value)
        return tuple(out)

    keyed = {who: sort_key(who) for who in lines}
    return {
        who: (
            1 + sum(1 for other in keyed.values() if other < k),
            sum(1 for other in keyed.values() if other == k) > 1,
        )
        for who, k in keyed.items()
    }


def recount(
    results: Iterable[GameResult],
    keys: Sequence[str],
    *,
    by_player: bool = False,
    zero: Iterable[int] = (),
    penalties: Iterable[Penalty] = (),
) -> dict[int, dict[str, Any]]:
    """{competitor id: line with rank and shared} for `results` ranked by `keys`."""
    results = list(results)

    def who_of(r: GameResult) -> int:
        return r.entry.player_id if by_player else r.entry_id

    every = _tally(results, who_of)
    confirmed = _tally([r for r in results if not is_provisional(r)], who_of)
    deducted: dict[int, int] = defaultdict(int)
    warned: dict[int, int] = defaultdict(int)
    for p in penalties:
        if p.withdrawn_at is not None:
            continue
        who = p.entry.player_id if by_player else p.entry_id
        if p.kind == "deduction":
            deducted[who] += p.points
        else:
            warned[who] += 1
    for who in [*zero, *deducted, *warned]:
        every.setdefault(who, _empty())
    for who in every:
        confirmed.setdefault(who, _empty())
        every[who]["points"] -= deducted[who]
        confirmed[who]["points"] -= deducted[who]
    provisional: dict[int, int] = defaultdict(int)
    for r in results:
        provisional[who_of(r)] += int(is_provisional(r))
    ranks, confirmed_ranks = _ranks(every, keys), _ranks(confirmed, keys)
    for who, line in every.items():
        line["rank"], line["shared"] = ranks[who]
        line["penalty_points"] = deducted[who]
        line["warnings"] = warned[who]
        line["provisional_games"] = provisional[who]
        line["confirmed_points"] = confirmed[who]["points"]
        line["confirmed_rank"], line["confirmed_shared"] = confirmed_ranks[who]
    return every


def as_lines(rows: Iterable[Any], *, by_player: bool = False) -> dict[int, dict[str, Any]]:
    """`Standing` rows in the oracle's shape (the counts from `Standing.metrics`)."""
    fields = (
        "points",
        "games",
        "best_set",
        "rank",
        "penalty_points",
        "warnings",
        "provisional_games",
        "confirmed_points",
        "confirmed_rank",
    )
    return {
        (row.player_id if by_player else row.entry_id): {
            **{f: getattr(row, f) for f in fields},
            **{c: row.metrics[c] for c in COUNTS},
            "shared": bool(row.shared),
            "confirmed_shared": bool(row.confirmed_shared),
        }
        for row in rows
    }


def ranked_by_stage_reached(
    totals: dict[int, dict[str, Any]],
    steps: Sequence[tuple[Sequence[int], dict[int, dict[str, Any]]]],
) -> dict[int, dict[str, Any]]:
    """The tournament's lines `totals` ranked by stage reached first (docs/formats.md, "The
    tournament's order"): `steps` best first, each (its entrants, its stage's recounted lines);
    each step's entrants take the next places, ordered among themselves by their stage's rank
    (and confirmed rank), sharing only a place they share there."""
    lines = {who: dict(line) for who, line in totals.items()}
    before = 0
    for members, stage in steps:
        for field, shared in (("rank", "shared"), ("confirmed_rank", "confirmed_shared")):
            for who in members:
                mine = stage[who][field]
                lines[who][field] = before + 1 + sum(1 for o in members if stage[o][field] < mine)
                lines[who][shared] = sum(1 for o in members if stage[o][field] == mine) > 1
        before += len(members)
    return lines
