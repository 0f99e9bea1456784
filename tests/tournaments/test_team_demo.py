"""`load_demo` also loads a 掼蛋 team event: 8 checked-in pairs, round 1 drawn and published
(partners facing), and loading it again changes nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from pytest_django.fixtures import Settings

from tournaments.models import Round, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development_machine(settings: Settings) -> None:
    settings.DEBUG = True


def test_the_demo_has_a_guandan_team_event_with_round_one_published() -> None:
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)

    event = Tournament.objects.get(slug="demo-guandan")
    assert event.plays_in_teams and event.status == Tournament.Status.RUNNING
    assert Team.objects.filter(tournament=event).count() == 8
    assert event.entries.filter(status="checked_in", team__isnull=False).count() == 16
    (round_,) = Round.objects.filter(stage__tournament=event)
    assert round_.status == Round.Status.PUBLISHED and round_.tables.count() == 4
    for table in round_.tables.all():
        teams = {s.position: s.entry.team_id for s in table.seats.select_related("entry")}
        assert teams[1] == teams[3] != teams[2] == teams[4]
