"""A JDF-like day for the tournament's order (shared by the final-order tests): 13 players,
points +2/+1/−1/−2 (tables of 3: +1/0/−1), one qualifying round of two games at a table of 4
and three tables of 3, a top-4 cut decided by lot among four players level on 2 points, then
the final's first game. A 14th entrant checks in late and plays nothing.

The figures below are written once, as a referee would read them off the score sheets; the
expected order is computed from them (`expected_order`), never from the standings.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    RoundFactory,
    SeatFactory,
    StageFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    finished_game,
)
from tournaments.models import Entry, Official, Round, Stage, StageEntrant, Tournament
from tournaments.points import preset_points_table

POINTS = {4: (2, 1, -1, -2), 3: (1, 0, -1)}
# Qualifying, round 1: each table's two games, finishing orders by entry number.
QUALIFYING = [
    [[1, 2, 3, 4], [1, 2, 4, 3]],
    [[5, 6, 7], [5, 6, 7]],
    [[8, 9, 10], [8, 10, 9]],
    [[11, 12, 13], [11, 12, 13]],
]
# 2, 5, 8 and 11 are level on every tie-break for the last three places: the lot sends 2, 5
# and 8 through, so 11 is the 5th qualifier, eliminated with 2 points.
FINALISTS = [1, 2, 5, 8]
# The final's first game.
FINAL = [2, 1, 5, 8]
LATE = 14  # checked in, never seated


@dataclass
class Day:
    tournament: Tournament
    organiser: User
    qualifying: Stage
    final: Stage
    entries: dict[int, Entry]  # by entry number


def points_of(games: list[list[int]]) -> dict[int, int]:
    """Points per entry number over finishing orders (the points table above)."""
    totals: dict[int, int] = {}
    for order in games:
        for place, number in enumerate(order):
            totals[number] = totals.get(number, 0) + POINTS[len(order)][place]
    return totals


def expected_order() -> dict[int, tuple[int, bool]]:
    """Entry number -> (rank, shared) by the documented rule (docs/formats.md, "The
    tournament's order"): the final's entrants first by the final's points, then the
    eliminated by their qualifying points, then whoever played nothing; equal points share
    (in this day no tie-break separates equal points: the level players hold the same
    places)."""
    qualifying = points_of([game for table in QUALIFYING for game in table])
    final = points_of([FINAL])
    groups = [
        (FINALISTS, final),
        ([n for n in qualifying if n not in FINALISTS], qualifying),
        ([LATE], {LATE: 0}),
    ]
    placed: dict[int, tuple[int, bool]] = {}
    before = 0
    for members, points in groups:
        for number in members:
            better = sum(1 for other in members if points[other] > points[number])
            level = sum(1 for other in members if points[other] == points[number])
            placed[number] = (before + better + 1, level > 1)
        before += len(members)
    return placed


def tournament_totals() -> dict[int, int]:
    """Every stage's points added up (what the tournament board's points column shows)."""
    totals = points_of([game for table in QUALIFYING for game in table] + [FINAL])
    return {**totals, LATE: 0}


def play_the_day(**final_fields: object) -> Day:
    organiser = UserFactory(username="org-jdf")
    tournament = TournamentFactory(
        name="JDF Open 全日本",
        slug="jdf-open",
        status=Tournament.Status.RUNNING,
        points_table=preset_points_table("plus2-minus2"),
    )
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    qualifying = StageFactory(
        tournament=tournament, order=1, name="予選", advance_top_n=len(FINALISTS)
    )
    final = StageFactory(
        tournament=tournament, order=2, name="決勝", kind=Stage.Kind.FINAL, **final_fields
    )
    entries = {
        n: EntryFactory(
            tournament=tournament,
            number=n,
            player__display_name=f"選手{n:02d}",
            status=Entry.Status.CHECKED_IN,
        )
        for n in range(1, LATE + 1)
    }
    now = timezone.now()
    round_ = RoundFactory(
        stage=qualifying, number=1, status=Round.Status.COMPLETE, published_at=now, completed_at=now
    )
    for number, games in enumerate(QUALIFYING, start=1):
        table = TableFactory(round=round_, number=number)
        for position, entry in enumerate(games[0], start=1):
            SeatFactory(table=table, position=position, entry=entries[entry])
        for game_number, order in enumerate(games, start=1):
            finished_game(
                table,
                [entries[n] for n in order],
                game_number=game_number,
                points=POINTS[len(order)],
                confirmed=True,
            )
    for number in FINALISTS:
        StageEntrant.objects.create(
            stage=final, entry=entries[number], source=StageEntrant.Source.ADVANCED, note="lot"
        )
    final_round = RoundFactory(stage=final, number=1, status=Round.Status.IN_PLAY, published_at=now)
    table = TableFactory(round=final_round, number=1)
    for position, number in enumerate(FINALISTS, start=1):
        SeatFactory(table=table, position=position, entry=entries[number])
    finished_game(table, [entries[n] for n in FINAL], points=POINTS[4], confirmed=True)
    return Day(tournament, organiser, qualifying, final, entries)
