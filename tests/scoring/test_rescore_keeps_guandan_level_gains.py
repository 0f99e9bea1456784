"""A rescore after the organiser changes the points table re-derives the points of seats played
alone from their place; a 掼蛋 (Guandan) seat's points are its team's level gain in the hand
(`games.results.partnership_points`), which no points table changes: a rescore keeps them — and
puts back a level gain if a row was ever given its place's points instead."""

from __future__ import annotations

import pytest

from games.models import GameResult
from games.services import record_quick_result
from scoring.standings import rescore_results
from tests.factories import UserFactory, console_guandan_hand, console_guandan_table
from tournaments.models import Tournament
from tournaments.points import preset_points_table

pytestmark = pytest.mark.django_db


def guandan_hand_won_one_two() -> tuple[Tournament, dict[int, int]]:
    """A quick Guandan hand where engine team 0 finished first and second (+3 levels)."""
    referee = UserFactory(username="gd-rescore-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"))
    game = console_guandan_hand(table, mode="quick")
    record_quick_result(game, referee, [0, 2])
    points = dict(GameResult.objects.filter(game=game).values_list("seat", "points"))
    return table.round.stage.tournament, points


def test_a_new_points_table_leaves_guandan_level_gains_alone() -> None:
    tournament, before = guandan_hand_won_one_two()
    assert before == {0: 3, 2: 3, 1: 0, 3: 0}
    Tournament.objects.filter(pk=tournament.pk).update(
        points_table=preset_points_table("50-30-20-10-last70")
    )
    tournament.refresh_from_db()

    changed = rescore_results(tournament)

    after = dict(GameResult.objects.values_list("seat", "points"))
    assert (changed, after) == (0, before)


def test_a_guandan_row_given_other_points_gets_its_level_gain_back() -> None:
    tournament, before = guandan_hand_won_one_two()
    GameResult.objects.filter(seat__in=[0, 1]).update(points=50)

    changed = rescore_results(tournament)
    again = rescore_results(tournament)

    assert (changed, again) == (2, 0)
    assert dict(GameResult.objects.values_list("seat", "points")) == before
