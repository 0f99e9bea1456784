"""Every game a tournament starts is played under the event's rules, its pinned switch values
included: the game keeps them (`Game.ruleset_overrides`), its deal follows them, and its
record names the preset and the values (`{"preset", "overrides"}`), so it replays as played."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.engine.record import replay_match
from games.state import rules_for_game
from tests.factories import UserFactory, guandan_table, play_guandan_hand, seated_table

pytestmark = pytest.mark.django_db


def test_a_game_keeps_the_events_11_back() -> None:
    referee = UserFactory()
    table = seated_table(referee, stage__tournament__ruleset_overrides={"eleven_back": "choice"})
    tournament = table.round.stage.tournament
    tournament.officials.create(user=referee, role="referee")

    game = services.start_game(table, referee)

    game.refresh_from_db()
    assert game.ruleset_overrides == {"eleven_back": "choice"}
    rules = rules_for_game(game)
    assert rules.eleven_back == "choice"
    assert rules.to_record() == {"preset": "jdf@1", "overrides": {"eleven_back": "choice"}}


def test_a_game_started_before_a_change_keeps_what_it_was_played_under() -> None:
    referee = UserFactory()
    table = seated_table(referee)
    tournament = table.round.stage.tournament
    tournament.officials.create(user=referee, role="referee")
    game = services.start_game(table, referee)

    tournament.ruleset_overrides = {"eleven_back": "toggle"}
    tournament.save(update_fields=["ruleset_overrides"])

    game.refresh_from_db()
    assert game.ruleset_overrides == {}
    assert rules_for_game(game).to_record() == "jdf@1"


def test_without_blind_cards_all_54_cards_are_dealt() -> None:
    # JDF removes 2 blind cards (13 each at 4 seats); with none, seats 0 and 1 get 14.
    referee = UserFactory()
    table = seated_table(referee, stage__tournament__ruleset_overrides={"blind_cards": 0})
    table.round.stage.tournament.officials.create(user=referee, role="referee")

    game = services.start_game(table, referee)

    assert [len(hand) for hand in game.hands] == [14, 14, 13, 13]
    assert not game.blind


def test_a_table_of_three_plays_three_seats_with_the_events_switches() -> None:
    referee = UserFactory()
    table = seated_table(
        referee,
        names=("Aoki", "Baba", "Chiba"),
        stage__tournament__table_size=3,
        stage__tournament__ruleset_overrides={"eleven_back": "choice"},
    )
    table.round.stage.tournament.officials.create(user=referee, role="referee")

    game = services.start_game(table, referee)

    rules = rules_for_game(game)
    assert (rules.seats, rules.eleven_back) == (3, "choice")


def test_a_team_matchs_record_names_the_preset_and_the_events_switches() -> None:
    referee = UserFactory()
    table = guandan_table(
        referee, seed="c3" * 32, ruleset_overrides={"tribute_tie": "first_chooses"}
    )
    play_guandan_hand(services.start_game(table, referee), referee)

    client = Client()
    client.force_login(referee)
    record = client.get(f"/api/tables/{table.pk}/match-record/").json()

    assert record["rules"] == {
        "preset": "guandan-cn@1",
        "overrides": {"tribute_tie": "first_chooses"},
    }
    assert replay_match(record).games[0].finished
