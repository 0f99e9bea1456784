"""`simulate_tournament` plays every game through the services; the standings it leaves (via
the results_changed signal, eager here) equal an independent recount."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Game, GameResult
from scoring.standings import ScopeRef, standings
from tests.scoring.oracle import as_lines, recount
from tournaments.models import Round, Tournament
from tournaments.points import DEFAULT_TIE_BREAKS


@pytest.mark.django_db
def test_a_simulated_tournament_is_scored_through_the_real_path(
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate_tournament", players=8, rounds=1, sets=1, seed=3, slug="sim")

    tournament = Tournament.objects.get(slug="sim")
    results = list(
        GameResult.objects.filter(entry__tournament=tournament).select_related("game", "entry")
    )
    assert Game.objects.filter(table__round__stage__tournament=tournament).count() == 8
    assert len(results) == 32
    assert not Round.objects.filter(stage__tournament=tournament).exclude(status="revealed")
    expected = recount(results, list(DEFAULT_TIE_BREAKS))
    assert as_lines(standings(ScopeRef.tournament(tournament.pk))) == expected
