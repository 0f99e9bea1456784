"""A UECda program that leaves mid-game (closes its connection, or does not answer within the
timeout) loses its connection; the bridge plays its seat with the engine's weakest legal
play, so the game ends for the others, and when the program connects again it is back at its
table from the next game, with its player number."""

from __future__ import annotations

import logging

import pytest

from games.models import Game
from tests.factories import bot_event
from tests.games.uecda_clients import bridge_thread, bundled_bot, run_clients

NAMES = ("bot1", "bot2", "bot3", "bot4", "leaver")


class Leave(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_the_leavers_seat_is_played_and_it_rejoins_at_the_next_game(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = bundled_bot()
    tournament = bot_event(NAMES, games_per_set=2)
    caplog.set_level(logging.INFO, logger="games.uecda_bridge")
    answers: dict[str, list[int]] = {}

    def leave(hand: int, mine: list[list[int]], field: int, field_as: int) -> int:
        raise Leave  # on its first turn, without answering

    def run(name: str, port: int) -> None:
        if name != "leaver":
            answers[name] = bot.connect_and_play("127.0.0.1", port, name)
            return
        with pytest.raises(Leave):
            bot.connect_and_play("127.0.0.1", port, name, leave)
        answers[name] = bot.connect_and_play("127.0.0.1", port, name)

    with bridge_thread(tournament, rounds=1) as port:
        run_clients(port, NAMES, run)

    games = list(Game.objects.filter(table__round__stage__tournament=tournament))
    assert [g.status for g in games] == [Game.Status.CONFIRMED] * 2
    assert sorted(answers) == sorted(NAMES)  # the leaver played game 2 to the end
    assert answers["leaver"]  # and had turns in it
    said = [r.getMessage() for r in caplog.records]
    assert any("leaver dropped" in line for line in said)
    assert any("leaver is back" in line for line in said)
