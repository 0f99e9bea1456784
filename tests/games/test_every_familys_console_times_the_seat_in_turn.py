"""The 掼蛋 (Guandan) and 大財閥 (Daizaibatsu) consoles show the same think-time countdown as
大富豪's when the organiser sets a limit (their presets have none by default), their moves are
timed by the one write path, and a time fault is one tap there too."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Move, TimeFault
from games.services import submit_move
from tests.factories import (
    GUANDAN_SMALL_HANDS,
    UserFactory,
    backdate_decision,
    daizaibatsu_game,
    daizaibatsu_table,
    guandan_console,
)
from tournaments.models import Tournament

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

PILE = ["3H", "3S", "4S", "5H", "5C", "6D", "6H", "7D"]
HANDS = [["7C", "KS", "2S", "5D"], ["JK", "9H", "6C", "3D"], ["8D", "TD", "QS"], ["3C", "AH"]]


def test_a_guandan_console_counts_down_once_a_limit_is_set() -> None:
    referee, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)
    url = f"/referee/tables/{table.pk}/"
    assert 'id="think-clock"' not in client.get(url).content.decode()

    Tournament.objects.filter(pk=table.round.stage.tournament_id).update(think_seconds=30)
    page = client.get(url).content.decode()

    assert 'data-limit="30"' in page and "kakumei/clock.js" in page
    backdate_decision(game, 4)
    assert submit_move(game, {"seat": 0, "play": ["3C", "3D"]}, 1, referee).ok
    think_ms = Move.objects.get(game=game, seq=1).think_ms
    assert think_ms == 4000


def test_a_daizaibatsu_console_records_a_time_fault_in_one_tap(client: Client) -> None:
    referee = UserFactory(username="ref-sato")
    table = daizaibatsu_table(referee)
    Tournament.objects.filter(pk=table.round.stage.tournament_id).update(think_seconds=10)
    game = daizaibatsu_game(table, HANDS, PILE, leader=0)
    backdate_decision(game, 12)
    client.force_login(referee)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()
    assert 'data-limit="10"' in page and 'data-testid="time-fault"' in page
    after = client.post(
        f"/referee/tables/{table.pk}/time-fault/", {"seq": "0", "seat": "0"}, HTTP_HX_REQUEST="true"
    ).content.decode()

    assert TimeFault.objects.get().seat == 0
    assert 'data-testid="time-fault-recorded"' in after
