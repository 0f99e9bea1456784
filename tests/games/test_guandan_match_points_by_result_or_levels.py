"""A team match's points (`games.matches.match_points`), read from its hands' results: by
result (win, draw, loss: 2/1/0 unless the tournament says otherwise) or by the levels the
winner finished ahead by (a win at A counts one past A)."""

from __future__ import annotations

import pytest

from games import services
from games.matches import match_points, table_match
from games.models import Game
from tests.factories import UserFactory, guandan_table
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


def play_quick(table: Table, referee: object, *orders: list[int]) -> None:
    for order in orders:
        game = services.start_game(table, referee, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
        services.record_quick_result(game, referee, order)  # type: ignore[arg-type]


def test_by_result_the_team_ahead_wins_two_points_and_a_level_match_draws() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    tournament = table.round.stage.tournament
    play_quick(table, referee, [0, 2])
    assert match_points(tournament, table_match(table.pk)) == {0: 2, 1: 0}
    play_quick(table, referee, [1, 3])  # 5 against 5
    assert match_points(tournament, table_match(table.pk)) == {0: 1, 1: 1}


def test_by_result_the_points_are_the_tournaments() -> None:
    referee = UserFactory()
    table = guandan_table(referee, match_points={"win": 3, "draw": 1, "loss": 0})
    play_quick(table, referee, [1, 0, 3])
    assert match_points(table.round.stage.tournament, table_match(table.pk)) == {0: 0, 1: 3}


def test_by_levels_the_team_ahead_scores_its_lead() -> None:
    referee = UserFactory()
    table = guandan_table(referee, match_points_by=Tournament.MatchPointsBy.LEVELS)
    play_quick(table, referee, [0, 2], [0, 1, 2])  # team 0: 2 → 5 → 7
    assert match_points(table.round.stage.tournament, table_match(table.pk)) == {0: 5, 1: 0}


def test_by_levels_a_win_at_ace_counts_one_past_ace() -> None:
    referee = UserFactory()
    table = guandan_table(referee, match_points_by=Tournament.MatchPointsBy.LEVELS)
    play_quick(table, referee, [0, 2], [0, 2], [0, 2], [0, 2], [0, 2])  # A, then won at A
    found = table_match(table.pk)
    assert found.winner == 0
    assert match_points(table.round.stage.tournament, found) == {0: 13, 1: 0}
