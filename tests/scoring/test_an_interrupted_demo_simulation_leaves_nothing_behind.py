"""`simulate_tournament` runs in one transaction: `./dev serve` plays the demo's simulated league
event while it already serves, so a run stopped half-way (Ctrl-C, an error) must leave no
half-made tournament behind — `--skip-existing` would skip it on every later start, and a fresh
clone would never get its complete demo. The next run then plays the whole event."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db

DEMO = {"slug": "demo-simulated", "players": 8, "rounds": 1, "sets": 1, "skip_existing": True}


def test_a_run_that_stops_half_way_leaves_nothing_and_the_next_run_plays_it_all() -> None:
    # The tournament is made, then the run stops: its league season does not exist.
    with pytest.raises(CommandError, match="No season"):
        call_command("simulate_tournament", season="no-league/2026", **DEMO)

    assert not Tournament.objects.filter(slug="demo-simulated").exists()
    assert not Player.objects.exists() and not Entry.objects.exists()

    call_command("simulate_tournament", **DEMO)

    tournament = Tournament.objects.get(slug="demo-simulated")
    games = Game.objects.filter(table__round__stage__tournament=tournament)
    assert tournament.entries.count() == 8
    assert games.count() == 8 and not games.exclude(status=Game.Status.CONFIRMED).exists()
