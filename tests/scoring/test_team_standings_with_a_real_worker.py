"""End to end with a real Celery worker process on PostgreSQL: a Guandan hand finished at a
team match (its results written and announced as the games service announces them) has the
worker recompute the tournament, and the team standings show the match's result."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction

from games.live import notify_results_changed
from games.models import Game
from scoring.models import TeamStanding
from tests.conftest import wait_until
from tests.factories import guandan_hand, match_table, published_round, team_league

pytestmark = pytest.mark.integration


def _lines(tournament_id: int) -> Callable[[], dict[int, tuple[int, int, int]]]:
    def read() -> dict[int, tuple[int, int, int]]:
        return {
            number: (points, wins, difference)
            for number, points, wins, difference in TeamStanding.objects.filter(
                scope="tournament", tournament_id=tournament_id
            ).values_list("team__number", "match_points", "wins", "level_difference")
        }

    return read


def test_a_finished_hand_updates_the_team_standings_through_the_worker(real_celery: str) -> None:
    tournament, stage, (t1, t2) = team_league(count=2, slug="gd-worker")
    table = match_table(published_round(stage, 1), 1, t1, t2)
    lines = _lines(tournament.pk)

    with transaction.atomic():
        hand = guandan_hand(table, 1, ("A", "9"), won=0)
        assert isinstance(hand, Game)
        # What games.services sends once a hand's results are written.
        notify_results_changed(hand.pk, tournament.pk)

    wait_until(lambda: lines().get(1) == (2, 1, 6), 60, "the worker's team standings")
    assert lines()[2] == (0, 0, -6)
