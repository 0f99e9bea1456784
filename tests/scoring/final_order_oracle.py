"""A deliberately naive recount of the published order of a multi-stage tournament, from the
documented rules (docs/formats.md "Standings", "Tie-break keys", "Advancement", "Tables and
uneven fields"; the tournament-wide order by stage reached, issue #35), in plain Python over
the stored rows: rounds, seats, byes, game results, penalties and stages.

It shares nothing with `scoring/` (nor `tournaments.ranking`, `tournaments.advancement`) but
the meaning of the documented names; the tallying of one scope is `oracle.recount`. The rules:

- a **stage's standings** count the results of the stage's rounds — plus, when the stage has
  `carry_over_totals`, the earlier stages' (playoffs excepted) — the points of its byes in
  published rounds (points, not games), and minus the active deductions given in those rounds;
  they list the stage's entrants (seated, or given a bye, in a published round of it), ordered
  by points then the points table's tie-breaks (the documented default when it names none);
  entrants equal on every key share a rank;
- a **settled playoff** (順位決定戦: every round of it complete or revealed) of a stage orders
  its entrants by their playoff points and tie-breaks, those level in it grouped; a group
  sharing a rank in the stage is split by the playoffs only when every member has a playoff
  place (the playoffs of a stage are read in their order);
- the **tournament's order** ranks by stage reached first: the entrants of the latest stage
  by that stage's standings (with its playoffs), above everyone who stopped earlier, who keep
  their order from the stage where they stopped, and so on down the stages; playoffs are not
  stages reached; entrants who played nothing come last, level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.models import GameResult
from tests.scoring.oracle import BETTER_IS_MORE, KEY_FIELD, recount
from tournaments.models import Bye, Entry, Penalty, Round, Seat, Stage, Tournament

# docs/formats.md, "Tie-break keys": the order when the points table names none.
DOCUMENTED_TIE_BREAKS = ("points", "daifugo", "fugo", "heimin", "hinmin", "fewer_fouls", "best_set")
SETTLED = ("complete", "revealed")  # a round's results are final (but for corrections)


@dataclass(frozen=True)
class Place:
    """One line of a recounted board: the entry, its rank (shared when another line has the
    same) and its points (the stage's, for a stage)."""

    entry: int
    rank: int
    points: int


def tie_breaks(tournament: Tournament) -> list[str]:
    keys = list(tournament.points_table.get("tie_breaks") or DOCUMENTED_TIE_BREAKS)
    return keys if keys[:1] == ["points"] else ["points", *keys]


def _sort_key(line: dict[str, Any], keys: Sequence[str]) -> tuple[float, ...]:
    out = []
    for key in keys:
        value = line[KEY_FIELD[key]]
        if value is None:
            value = -(10**9)
        out.append(-value if key in BETTER_IS_MORE else value)
    return tuple(out)


def _published_rounds(stages: Iterable[Stage]) -> list[Round]:
    return list(Round.objects.filter(stage__in=list(stages)).exclude(status="draft"))


def _who_played(stage: Stage) -> set[int]:
    rounds = _published_rounds([stage])
    seated = set(Seat.objects.filter(round__in=rounds).values_list("entry_id", flat=True))
    return seated | set(Bye.objects.filter(round__in=rounds).values_list("entry_id", flat=True))


def _lines(stage: Stage) -> dict[int, dict[str, Any]]:
    """The stage's tally per entry, over the stage (and, carried over, earlier main stages)."""
    counted = [stage]
    if stage.carry_over_totals:
        counted += [
            s
            for s in Stage.objects.filter(tournament=stage.tournament_id, order__lt=stage.order)
            if s.kind != "playoff"
        ]
    rounds = _published_rounds(counted)
    results = GameResult.objects.filter(game__table__round__in=rounds).select_related(
        "game", "entry"
    )
    penalties = Penalty.objects.filter(round__in=rounds).select_related("entry")
    byes = Bye.objects.filter(round__in=rounds)
    lines = recount(
        results,
        tie_breaks(stage.tournament),
        zero=_who_played(stage),
        penalties=penalties,
    )
    for bye in byes:  # a bye's points count in every total; it is not a game
        if bye.entry_id in lines:  # else: a carried-over bye of someone not in this stage
            lines[bye.entry_id]["points"] += bye.points
            lines[bye.entry_id]["confirmed_points"] += bye.points
    return lines


def _ranked(
    members: Iterable[int], keyed: dict[int, tuple[Any, ...]], offset: int = 0
) -> list[Place]:
    """Competition ranks (1, 1, 3…) of `members` by `keyed`, smaller first, from offset + 1."""
    members = list(members)
    return sorted(
        (
            Place(who, offset + 1 + sum(1 for o in members if keyed[o] < keyed[who]), 0)
            for who in members
        ),
        key=lambda p: (p.rank, p.entry),
    )


def playoff_positions(stage: Stage) -> dict[int, int]:
    """Each entrant's place in the order the settled playoffs of `stage` give (level entrants of
    one playoff share a position)."""
    positions: dict[int, int] = {}
    keys = tie_breaks(stage.tournament)
    for playoff in Stage.objects.filter(playoff_for=stage, kind="playoff").order_by("order"):
        rounds = list(Round.objects.filter(stage=playoff))
        if not rounds or any(r.status not in SETTLED for r in rounds):
            continue
        members = set(playoff.entrants.values_list("entry_id", flat=True))
        results = GameResult.objects.filter(game__table__round__in=rounds).select_related(
            "game", "entry"
        )
        lines = recount(results, keys, zero=members)
        levels = sorted({_sort_key(lines[m], keys) for m in members})
        base = len(set(positions.values()))
        for m in members:
            positions[m] = base + levels.index(_sort_key(lines[m], keys))
    return positions


def stage_keys(stage: Stage) -> tuple[dict[int, tuple[Any, ...]], dict[int, int]]:
    """({entry: the stage's order key, smaller first}, {entry: the stage's points}) for the
    stage's entrants, a shared rank split by the stage's settled playoffs where they cover it."""
    lines = _lines(stage)
    keys = tie_breaks(stage.tournament)
    members = _who_played(stage)
    base = {m: _sort_key(lines[m], keys) for m in members}
    positions = playoff_positions(stage)
    keyed: dict[int, tuple[Any, ...]] = {}
    for m in members:
        group = [o for o in members if base[o] == base[m]]
        covered = len(group) > 1 and all(o in positions for o in group)
        keyed[m] = (*base[m], positions[m] if covered else 0)
    return keyed, {m: lines[m]["points"] for m in members}


def stage_board(stage: Stage) -> list[Place]:
    """The stage's standings, best first."""
    keyed, points = stage_keys(stage)
    return [Place(p.entry, p.rank, points[p.entry]) for p in _ranked(keyed, keyed)]


def main_stages(tournament: Tournament) -> list[Stage]:
    return [s for s in tournament.stages.order_by("order") if s.kind != "playoff"]


def reached(tournament: Tournament) -> dict[int, Stage]:
    """{entry: the latest stage it took part in}."""
    out: dict[int, Stage] = {}
    for stage in main_stages(tournament):
        for who in _who_played(stage):
            out[who] = stage
    return out


def tournament_board(tournament: Tournament) -> list[Place]:
    """The tournament's order: by stage reached, then that stage's standings; the points are
    those of the stage reached."""
    reach = reached(tournament)
    board: list[Place] = []
    for stage in reversed(main_stages(tournament)):
        keyed, points = stage_keys(stage)
        tier = [who for who, last in reach.items() if last.pk == stage.pk]
        board += [
            Place(p.entry, p.rank, points[p.entry]) for p in _ranked(tier, keyed, offset=len(board))
        ]
    idle = Entry.objects.filter(tournament=tournament, status="checked_in").exclude(
        pk__in=list(reach)
    )
    board += [Place(e.pk, len(board) + 1, 0) for e in idle.order_by("pk")]
    return board
