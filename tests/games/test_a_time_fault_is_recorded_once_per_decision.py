"""One time fault per decision: a second tap on the same decision (the console's button, or the
API sent twice) answers the fault already recorded and gives nothing more; a screen the game
has moved past is refused; the next decision may be faulted again."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, TimeFault
from games.services import GameError, record_time_fault, submit_move
from tests.factories import EIGHT_CUT_HANDS, EIGHT_CUT_MOVES, GameFactory, backdate_decision
from tournaments.models import Penalty, Tournament

from .conftest import Crew

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    return made


def test_a_double_tap_on_the_console_records_one_fault(
    client: Client, crew: Crew, game: Game
) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(
        time_fault_rule="penalty", time_fault_points=2
    )
    backdate_decision(game, 22)
    client.force_login(crew.referee)
    url = f"/referee/tables/{crew.table.pk}/time-fault/"

    first = client.post(url, {"seq": "0", "seat": "0"}, HTTP_HX_REQUEST="true")
    second = client.post(url, {"seq": "0", "seat": "0"}, HTTP_HX_REQUEST="true")

    assert first.status_code == second.status_code == 200
    assert TimeFault.objects.count() == 1
    assert Penalty.objects.get().points == 2
    page = second.content.decode()
    assert 'data-testid="time-fault-recorded"' in page
    assert 'data-testid="time-fault"' not in page


def test_the_api_answers_a_repeat_with_the_fault_already_recorded(
    client: Client, crew: Crew, game: Game
) -> None:
    backdate_decision(game, 22)
    client.force_login(crew.referee)
    url = f"/api/games/{game.pk}/time-faults/"

    first = client.post(url, {"seat": 0, "seq": 0}, content_type="application/json")
    again = client.post(url, {"seat": 0, "seq": 0}, content_type="application/json")

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["created"] is True and again.json()["created"] is False
    assert first.json()["fault"]["id"] == again.json()["fault"]["id"]
    assert first.json()["fault"]["rule"] == "warning"
    assert Penalty.objects.count() == 1


def test_a_stale_screen_is_refused_and_the_next_decision_may_be_faulted(
    crew: Crew, game: Game
) -> None:
    backdate_decision(game, 22)
    record_time_fault(game, 0, crew.referee, seq=0)
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok

    backdate_decision(game, 22)
    with pytest.raises(GameError) as stale:
        record_time_fault(game, 1, crew.referee, seq=5)
    assert stale.value.code == "seq_conflict"
    assert record_time_fault(game, 1, crew.referee, seq=1).created
    assert list(TimeFault.objects.values_list("due_seq", "seat")) == [(0, 0), (1, 1)]
