"""A team tournament's standings count each team's matches as `games.matches` reads them from
the hands' results: match points (win/draw/loss, custom, or by level difference), byes once
per team, the level difference, opponents' strength; ranked match points → level difference
→ opponents' strength, equal on all three sharing a rank."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.utils import timezone

from scoring.models import TeamStanding
from scoring.standings import ScopeRef, recompute_tournament
from tests.factories import (
    RoundFactory,
    StageFactory,
    guandan_hand,
    guandan_tournament,
    match_table,
    pair,
)
from tournaments.models import Bye, Round, Stage, Team, Tournament

pytestmark = pytest.mark.django_db


@dataclass
class League:
    tournament: Tournament
    stage: Stage
    teams: list[Team]


def league(count: int = 4, **fields: object) -> League:
    tournament = guandan_tournament(games_per_set=3, **fields)
    stage = StageFactory(tournament=tournament, order=1, name="Swiss")
    names = ["Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara", "Ito", "Jo"]
    teams = [
        pair(tournament, n, f"Team {n}", (names[n - 1] + " A", names[n - 1] + " B"))
        for n in range(1, count + 1)
    ]
    return League(tournament, stage, teams)


def published(stage: Stage, number: int) -> Round:
    return RoundFactory(
        stage=stage, number=number, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )


def play_to_cap(table: object, levels: tuple[str, str], confirmed: bool = True) -> None:
    """The match's three hands, the last leaving `levels`."""
    guandan_hand(table, 1, ("3", "3"))
    guandan_hand(table, 2, ("4", "4"))
    guandan_hand(table, 3, levels, confirmed=confirmed)


def lines(cup: League) -> dict[str, TeamStanding]:
    recompute_tournament(cup.tournament.pk)
    rows = TeamStanding.objects.filter(scope="tournament", tournament=cup.tournament)
    return {row.team.name: row for row in rows.select_related("team")}


def test_a_win_at_a_a_draw_and_a_loss_score_two_one_and_nothing() -> None:
    cup = league()
    t1, t2, t3, t4 = cup.teams
    r1 = published(cup.stage, 1)
    guandan_hand(match_table(r1, 1, t1, t2), 1, ("A", "8"), won=0)
    play_to_cap(match_table(r1, 2, t3, t4), ("7", "7"))

    rows = lines(cup)

    one, two, three, four = (rows[f"Team {n}"] for n in range(1, 5))
    assert (one.match_points, one.wins, one.draws, one.losses, one.played) == (2, 1, 0, 0, 1)
    assert (two.match_points, two.wins, two.draws, two.losses) == (0, 0, 0, 1)
    assert (three.match_points, three.draws, four.match_points, four.draws) == (1, 1, 1, 1)
    # Won at A counts one level past A (15) against 8; a draw leaves no difference.
    assert (one.level_difference, two.level_difference) == (7, -7)
    assert (three.level_difference, four.level_difference) == (0, 0)
    assert [(r.team.name, r.rank, r.shared) for r in sorted(rows.values(), key=lambda r: r.rank)][
        :1
    ] == [("Team 1", 1, False)]
    assert (three.rank, four.rank, three.shared, two.rank) == (2, 2, True, 4)


def test_custom_match_points_are_the_tournaments() -> None:
    cup = league(match_points={"win": 3, "draw": 1, "loss": -1})
    t1, t2, t3, t4 = cup.teams
    r1 = published(cup.stage, 1)
    play_to_cap(match_table(r1, 1, t1, t2), ("6", "9"))
    play_to_cap(match_table(r1, 2, t3, t4), ("5", "5"))

    rows = lines(cup)

    assert rows["Team 2"].match_points == 3 and rows["Team 1"].match_points == -1
    assert rows["Team 3"].match_points == rows["Team 4"].match_points == 1


def test_match_points_by_level_difference_go_to_the_team_ahead() -> None:
    cup = league(match_points_by=Tournament.MatchPointsBy.LEVELS)
    t1, t2, t3, t4 = cup.teams
    r1 = published(cup.stage, 1)
    guandan_hand(match_table(r1, 1, t1, t2), 1, ("A", "8"), won=0)
    play_to_cap(match_table(r1, 2, t3, t4), ("6", "9"))

    rows = lines(cup)

    assert (rows["Team 1"].match_points, rows["Team 2"].match_points) == (7, 0)
    assert (rows["Team 4"].match_points, rows["Team 3"].match_points) == (3, 0)
    assert rows["Team 4"].wins == 1 and rows["Team 3"].losses == 1


def test_a_teams_bye_counts_once_with_a_wins_points() -> None:
    cup = league(count=3)
    t1, t2, t3 = cup.teams
    r1 = published(cup.stage, 1)
    guandan_hand(match_table(r1, 1, t1, t2), 1, ("A", "8"), won=0)
    for member in t3.members.all():  # gd-teams records one bye per member entry
        Bye.objects.create(round=r1, entry=member, points=2)

    rows = lines(cup)

    three = rows["Team 3"]
    assert (three.byes, three.match_points, three.played, three.level_difference) == (1, 2, 0, 0)
    assert three.opponents_strength == 0
    # Level with Team 1 on match points; Team 1's win put it 7 levels up.
    assert (rows["Team 1"].rank, three.rank, rows["Team 2"].rank) == (1, 2, 3)


def test_ties_break_by_match_points_then_level_difference_then_opponents_strength() -> None:
    cup = league(count=6)
    t1, t2, t3, t4, t5, t6 = cup.teams
    r1 = published(cup.stage, 1)
    play_to_cap(match_table(r1, 1, t1, t2), ("6", "4"))
    play_to_cap(match_table(r1, 2, t3, t4), ("6", "4"))
    play_to_cap(match_table(r1, 3, t5, t6), ("3", "3"))
    r2 = published(cup.stage, 2)
    play_to_cap(match_table(r2, 1, t1, t5), ("4", "4"))
    play_to_cap(match_table(r2, 2, t3, t6), ("4", "4"))
    play_to_cap(match_table(r2, 3, t2, t4), ("5", "3"))

    rows = lines(cup)

    board = sorted(rows.values(), key=lambda r: (r.rank, r.team.number))
    assert [
        (
            r.team.name,
            r.rank,
            r.shared,
            r.match_points,
            r.level_difference,
            r.opponents_strength,
        )
        for r in board
    ] == [
        # Level with Team 3 on match points and levels: its opponents scored more (2 + 2).
        ("Team 1", 1, False, 3, 2, 4),
        ("Team 3", 2, False, 3, 2, 2),
        # Level on all three: a shared place.
        ("Team 5", 3, True, 2, 0, 5),
        ("Team 6", 3, True, 2, 0, 5),
        ("Team 2", 5, False, 2, 0, 3),
        ("Team 4", 6, False, 0, -4, 5),
    ]


def test_a_match_not_over_scores_nothing_and_shows_in_play_with_its_levels() -> None:
    cup = league()
    t1, t2, t3, t4 = cup.teams
    r1 = published(cup.stage, 1)
    live = match_table(r1, 1, t1, t2)
    guandan_hand(live, 1, ("5", "2"))
    guandan_hand(live, 2, ("5", "2"), in_play=True)
    between = match_table(r1, 2, t3, t4)
    guandan_hand(between, 1, ("2", "4"))

    rows = lines(cup)

    one, four = rows["Team 1"], rows["Team 4"]
    assert (one.played, one.match_points, one.level_difference) == (0, 0, 0)
    assert one.in_play == {"table": 1, "opponent": t2.pk, "levels": ["5", "2"], "hands": 1}
    assert rows["Team 2"].in_play["levels"] == ["2", "5"]
    # Between two hands the match is still on.
    assert four.in_play == {"table": 2, "opponent": t3.pk, "levels": ["4", "2"], "hands": 1}
    assert all(r.rank == 1 and r.shared for r in rows.values())


def test_a_match_with_a_hand_not_confirmed_is_provisional() -> None:
    cup = league()
    t1, t2, t3, t4 = cup.teams
    r1 = published(cup.stage, 1)
    play_to_cap(match_table(r1, 1, t1, t2), ("6", "4"), confirmed=False)
    play_to_cap(match_table(r1, 2, t3, t4), ("6", "4"))

    rows = lines(cup)

    assert (rows["Team 1"].provisional_matches, rows["Team 2"].provisional_matches) == (1, 1)
    assert rows["Team 3"].provisional_matches == 0
    assert rows["Team 1"].match_points == 2


def test_an_organiser_completing_the_round_ends_its_matches_where_they_stand() -> None:
    cup = league()
    t1, t2, _, _ = cup.teams
    r1 = published(cup.stage, 1)
    guandan_hand(match_table(r1, 1, t1, t2), 1, ("5", "2"))
    Round.objects.filter(pk=r1.pk).update(status=Round.Status.COMPLETE, completed_at=timezone.now())

    rows = lines(cup)

    assert (rows["Team 1"].wins, rows["Team 1"].level_difference, rows["Team 1"].in_play) == (
        1,
        3,
        None,
    )


def test_the_stage_board_counts_its_rounds_and_a_season_has_no_team_rows() -> None:
    cup = league()
    t1, t2, _, _ = cup.teams
    guandan_hand(match_table(published(cup.stage, 1), 1, t1, t2), 1, ("A", "8"), won=0)

    recompute_tournament(cup.tournament.pk)

    stage_rows = TeamStanding.objects.filter(scope="stage", stage=cup.stage)
    assert {r.team.name: r.match_points for r in stage_rows} == {
        "Team 1": 2,
        "Team 2": 0,
        "Team 3": 0,
        "Team 4": 0,
    }
    assert not TeamStanding.objects.exclude(scope__in=["tournament", "stage"]).exists()
    assert ScopeRef.stage(cup.stage.pk).key == f"stage:{cup.stage.pk}"


def test_a_tournament_played_alone_has_no_team_rows() -> None:
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    StageFactory(tournament=tournament)

    recompute_tournament(tournament.pk)

    assert not TeamStanding.objects.filter(tournament=tournament).exists()
