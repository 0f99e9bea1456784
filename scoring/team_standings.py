"""Team standings (掼蛋 Guandan team events): each team's matches, ranked.

`write_team_standings(ref, now, version)` rebuilds a tournament's or a stage's `TeamStanding`
rows. `scoring.standings.recompute_scope` calls it inside its own transaction, after the
scope's lock and before the digest, so the team rows share the scope's `StandingsVersion`:
the boards' version polling and their caches cover them unchanged, and a run that changes
nothing writes nothing. Like the individual rows, they are a function of the results alone.

What a team's line counts, from `games.matches` (the one reader of a table's match):

- a match that is over (`match_over`: won at A, every hand played, the time limit passed;
  or its round completed by the organiser) scores `match_points` (win/draw/loss, or the level
  difference) and adds the team's final level minus the opponents' (won at A: one past A) to
  `level_difference`; it is *provisional* while one of its hands awaits its second official;
- a match not over yet scores nothing: the line says it is in play, with the levels as they
  stand, which is what a spectator watching the board wants to see;
- a bye (`tournaments.Bye`, one per member entry) counts once per team and round, with its
  points;
- opponents' strength (Buchholz): the match points of the teams it has played (its finished
  matches' opponents), summed.

Ranked by match points, then level difference, then opponents' strength; teams equal on all
three share a rank. A season has no team standings (it ranks players across tournaments).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from games.engine.guandan import format_level
from games.matches import TableMatch, match_over, match_points, table_matches
from games.models import Game
from scoring.models import Scope, TeamStanding
from tournaments.models import Bye, Entry, Round, Stage, Table, Team, Tournament
from tournaments.selectors import stage_participant_ids

# The ranking keys, in order (the API names them so).
TEAM_TIE_BREAKS = ("match_points", "level_difference", "opponents_strength")
TEAM_SCOPES = (Scope.TOURNAMENT, Scope.STAGE)


@dataclass(slots=True)
class TeamLine:
    team_id: int
    match_points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    level_difference: int = 0
    opponents_strength: int = 0
    provisional_matches: int = 0
    in_play: dict[str, Any] | None = None
    opponents: list[int] = field(default_factory=list)
    rank: int = 1
    shared: bool = False

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.match_points, self.level_difference, self.opponents_strength)


def team_scope_filter(kind: str, scope_id: int) -> dict[str, object]:
    """ORM filter for a scope's `TeamStanding` rows."""
    if kind == Scope.TOURNAMENT:
        return {"scope": kind, "tournament_id": scope_id}
    return {"scope": kind, "stage_id": scope_id}


def _scope(kind: str, scope_id: int) -> tuple[Tournament, Stage | None, list[int]] | None:
    """The scope's tournament, stage and the stages whose rounds it counts; None when it has
    no team standings (a season, or a tournament played alone)."""
    if kind not in TEAM_SCOPES:
        return None
    if kind == Scope.TOURNAMENT:
        tournament = Tournament.objects.get(pk=scope_id)
        stage = None
    else:
        stage = Stage.objects.select_related("tournament").get(pk=scope_id)
        tournament = stage.tournament
    if not tournament.plays_in_teams:
        return None
    if stage is None:
        # A playoff only orders level entrants: it never adds to the tournament's totals.
        stages = list(
            tournament.stages.exclude(kind=Stage.Kind.PLAYOFF).values_list("pk", flat=True)
        )
    else:
        stages = [stage.pk]
        if stage.carry_over_totals:
            stages += (
                tournament.stages.filter(order__lt=stage.order)
                .exclude(kind=Stage.Kind.PLAYOFF)
                .values_list("pk", flat=True)
            )
    return tournament, stage, stages


def _entered_teams(tournament: Tournament, stage: Stage | None) -> set[int]:
    """Teams on the board before they play: those with a member checked in (a stage: a
    member taking part in it)."""
    if stage is None:
        members = Q(members__status=Entry.Status.CHECKED_IN)
    else:
        members = Q(members__in=stage_participant_ids(stage))
    return set(Team.objects.filter(members, tournament=tournament).values_list("pk", flat=True))


def _in_play(match: TableMatch, side: int, table_number: int, opponent: int) -> dict[str, Any]:
    return {
        "table": table_number,
        "opponent": opponent,
        "levels": [format_level(match.levels[side]), format_level(match.levels[1 - side])],
        "hands": match.hands,
    }


def team_lines(kind: str, scope_id: int, now: datetime.datetime | None = None) -> list[TeamLine]:
    """The scope's team lines, ranked (empty when the scope has no team standings)."""
    found = _scope(kind, scope_id)
    if found is None:
        return []
    tournament, stage, stages = found
    rounds = Round.objects.filter(stage_id__in=stages).exclude(status=Round.Status.DRAFT)
    tables = list(
        Table.objects.filter(round__in=rounds)
        .order_by("round__stage__order", "round__number", "number")
        .values_list("pk", "number", "round__status")
    )
    matches = table_matches(pk for pk, _, _ in tables)
    # A hand finished but not confirmed (and not ended by a forfeit, a ruling) is provisional.
    provisional = set(
        Game.objects.filter(
            table_id__in=[pk for pk, _, _ in tables],
            status=Game.Status.FINISHED,
            forfeit_seat__isnull=True,
        ).values_list("table_id", flat=True)
    )
    lines = {team: TeamLine(team) for team in _entered_teams(tournament, stage)}

    def line(team: int) -> TeamLine:
        return lines.setdefault(team, TeamLine(team))

    for table_id, number, round_status in tables:
        match = matches[table_id]
        first, second = match.teams
        if first is None or second is None:
            continue  # not a team match (a table not seating two registered teams)
        teams = (first, second)
        # An organiser completing the round ends its matches where they stand.
        over = match_over(tournament, match, now) or (
            round_status in Round.SETTLED and not match.in_play
        )
        if not over:
            if match.in_play or match.hands:
                for side in (0, 1):
                    line(teams[side]).in_play = _in_play(match, side, number, teams[1 - side])
            continue
        if match.hands == 0:
            continue  # a settled round's table where no hand was played: no match
        points = match_points(tournament, match)
        for side in (0, 1):
            mine = line(teams[side])
            mine.played += 1
            mine.match_points += points[side]
            mine.level_difference += match.level_difference(side)
            if match.leader is None:
                mine.draws += 1
            elif match.leader == side:
                mine.wins += 1
            else:
                mine.losses += 1
            mine.opponents.append(teams[1 - side])
            mine.provisional_matches += table_id in provisional
    # gd-teams records a bye per member entry: the team's bye in a round counts once.
    byes: dict[tuple[int, int], int] = {}
    for round_id, team, bye_points in Bye.objects.filter(
        round__in=rounds, entry__team__isnull=False
    ).values_list("round_id", "entry__team_id", "points"):
        byes[(round_id, team)] = max(bye_points, byes.get((round_id, team), bye_points))
    for (_, team), bye_points in byes.items():
        line(team).byes += 1
        line(team).match_points += bye_points
    for mine in lines.values():
        mine.opponents_strength = sum(lines[o].match_points for o in mine.opponents)
    return rank_lines(lines.values())


def rank_lines(lines: Iterable[TeamLine]) -> list[TeamLine]:
    """The lines best first (then by team number's order of ids), each with its rank: one
    more than the teams strictly ahead; equal on every key, shared."""
    ordered = sorted(lines, key=lambda x: (tuple(-v for v in x.key), x.team_id))
    counts: dict[tuple[int, int, int], int] = {}
    for mine in ordered:
        counts[mine.key] = counts.get(mine.key, 0) + 1
    rank = 0
    previous: tuple[int, int, int] | None = None
    for position, mine in enumerate(ordered, start=1):
        if mine.key != previous:
            rank, previous = position, mine.key
        mine.rank = rank
        mine.shared = counts[mine.key] > 1
    return ordered


def write_team_standings(kind: str, scope_id: int, now: datetime.datetime, version: int) -> None:
    """Replace the scope's `TeamStanding` rows (call inside the scope's recompute
    transaction, under its lock)."""
    if kind not in TEAM_SCOPES:
        return
    TeamStanding.objects.filter(**team_scope_filter(kind, scope_id)).delete()
    lines = team_lines(kind, scope_id, now)
    if not lines:
        return
    if kind == Scope.TOURNAMENT:
        tournament_id, stage_id = scope_id, None
    else:
        tournament_id = Stage.objects.values_list("tournament_id", flat=True).get(pk=scope_id)
        stage_id = scope_id
    TeamStanding.objects.bulk_create(
        TeamStanding(
            scope=kind,
            tournament_id=tournament_id,
            stage_id=stage_id,
            team_id=mine.team_id,
            rank=mine.rank,
            shared=mine.shared,
            **{name: getattr(mine, name) for name in TeamStanding.RECORD_FIELDS},
            in_play=mine.in_play,
            computed_at=now,
            results_version=version,
        )
        for mine in lines
    )


DIGEST_FIELDS = (
    "team_id",
    "rank",
    "shared",
    *TeamStanding.RECORD_FIELDS,
    "in_play",
)


def team_digest_lines(kind: str, scope_id: int) -> Iterable[str]:
    """The scope's team rows as text for the scope's digest (none for a season)."""
    if kind not in TEAM_SCOPES:
        return
    rows = TeamStanding.objects.filter(**team_scope_filter(kind, scope_id)).order_by("team_id")
    for row in rows.values_list(*DIGEST_FIELDS):
        yield json.dumps(row, sort_keys=True, default=str)
