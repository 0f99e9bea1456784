"""A table's team match comes out as one kakumei-record/1 match record that the engine replays
hand after hand to the levels the service reached; only the table's officials may read it, and
a match with a hand entered as a result only is refused (its moves are not known)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.test import Client

from games import services
from games.engine.guandan import format_level
from games.engine.record import replay_match
from games.matches import table_match
from tests.factories import UserFactory, guandan_table, play_guandan_hand

pytestmark = pytest.mark.django_db

SEED = "a7" * 32


def test_two_hands_played_out_replay_to_the_services_levels() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)
    play_guandan_hand(services.start_game(table, referee), referee, favoured=0)
    second = services.start_game(table, referee)  # starts with the tribute the losers owe
    play_guandan_hand(second, referee, favoured=1)
    in_play = services.start_game(table, referee)  # a hand in play stays out of the record

    client = Client()
    client.force_login(referee)
    response = client.get(f"/api/tables/{table.pk}/match-record/")

    assert response.status_code == 200
    record = response.json()
    assert [game["hands"] for game in record["games"]] == [
        g.hands for g in table.games.exclude(pk=in_play.pk).order_by("game_number")
    ]
    replayed = replay_match(record)
    service = table_match(table.pk)
    assert [game.finished for game in replayed.games] == [True, True]
    assert all(verdict.ok for game in replayed.games for verdict in game.moves)
    assert replayed.to_dict()["levels"] == [format_level(v) for v in service.levels]
    # The command a tool author would type replays it too.
    command = [sys.executable, "-m", "games.engine", "replay", "-"]
    done = subprocess.run(command, input=json.dumps(record), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_only_the_tables_officials_read_the_record() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)
    play_guandan_hand(services.start_game(table, referee), referee)

    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/api/tables/{table.pk}/match-record/").status_code in (403, 404)
    assert Client().get(f"/api/tables/{table.pk}/match-record/").status_code in (401, 403)


def test_a_match_with_a_quick_hand_is_not_replayable_and_says_which() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)
    empty = Client()
    empty.force_login(referee)
    nothing = empty.get(f"/api/tables/{table.pk}/match-record/")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_hands_ended"

    quick = services.start_game(table, referee, mode="quick")
    services.record_quick_result(quick, referee, [0, 2])

    refused = empty.get(f"/api/tables/{table.pk}/match-record/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "match_not_replayable"
    assert "第1局" in refused.json()["message_ja"]
