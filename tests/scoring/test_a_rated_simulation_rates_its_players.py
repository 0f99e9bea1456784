"""`simulate_tournament --rated` (what `./dev serve` loads for the demo) leaves every player of
the simulated tournament with a rating and a history point per game played."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from scoring.models import Rating, RatingPoint
from tournaments.models import Tournament


@pytest.mark.django_db
def test_a_rated_simulation_rates_every_player(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "simulate_tournament", players=8, rounds=1, sets=1, seed=5, slug="sim", rated=True
        )

    tournament = Tournament.objects.get(slug="sim")
    assert tournament.rated
    assert Rating.objects.filter(player__entries__tournament=tournament).count() == 8
    # 8 games of 4 seats.
    assert RatingPoint.objects.filter(tournament=tournament).count() == 32
