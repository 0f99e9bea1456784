"""Only the table's officials (its referee, the head referee, an organiser) record a time
fault, on the console and through the API, as every console write; another table's referee
and an organiser of another tournament are refused, and nothing is recorded."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from games.models import Game, TimeFault
from games.services import record_time_fault
from tests.factories import EIGHT_CUT_HANDS, GameFactory, backdate_decision
from tournaments.models import Penalty

from .conftest import Crew

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    backdate_decision(made, 30)
    return made


def test_another_referee_and_an_outside_organiser_are_refused(crew: Crew, game: Game) -> None:
    for outsider in (crew.other_referee, crew.outsider_organiser):
        with pytest.raises(PermissionDenied):
            record_time_fault(game, 0, outsider)
    assert not TimeFault.objects.exists() and not Penalty.objects.exists()


def test_the_api_refuses_another_referee(client: Client, crew: Crew, game: Game) -> None:
    client.force_login(crew.other_referee)
    response = client.post(
        f"/api/games/{game.pk}/time-faults/", {"seat": 0, "seq": 0}, content_type="application/json"
    )
    assert response.status_code in (403, 404)
    assert not TimeFault.objects.exists()


@pytest.mark.parametrize("who", ["referee", "head_referee", "organiser"])
def test_the_tables_officials_may(crew: Crew, game: Game, who: str) -> None:
    assert record_time_fault(game, 0, getattr(crew, who)).created
