"""Four-seat 大富豪 presets with one joker play over the UECda protocol too (row 6 has room
for five players): a gekijo table of four bundled bots plays its set, the exchange of the
second game included, every move judged legal by the engine on replay. Presets with two
jokers (jdf, local) are refused: a UECda hand has one joker."""

from __future__ import annotations

import pytest

from games.engine.record import replay
from games.models import Game
from games.records import export_game
from games.services import GameError
from games.uecda_bridge import ACCEPT, serve
from tests.factories import bot_event
from tests.games.uecda_clients import bridge_thread, bundled_bot, run_clients

NAMES = ("g1", "g2", "g3", "g4")


@pytest.mark.django_db(transaction=True)
def test_a_gekijo_table_of_four_bots_plays_its_set() -> None:
    bot = bundled_bot()
    tournament = bot_event(NAMES, ruleset="gekijo", games_per_set=2, slug="gekijo-bots")
    answers: dict[str, list[int]] = {}

    def run(name: str, port: int) -> None:
        answers[name] = bot.connect_and_play("127.0.0.1", port, name)

    with bridge_thread(tournament, rounds=1) as port:
        run_clients(port, NAMES, run)

    assert sorted(answers) == sorted(NAMES)
    assert all(ACCEPT in got for got in answers.values())
    games = list(Game.objects.filter(table__round__stage__tournament=tournament))
    assert [g.status for g in games] == [Game.Status.CONFIRMED] * 2
    for game in games:
        judged = replay(export_game(game, game.moves.order_by("seq")))
        assert judged.finished and all(v.ok for v in judged.moves)
        assert len(judged.exchange) == (0 if game.game_number == 1 else 4)


@pytest.mark.django_db
def test_a_two_joker_preset_is_refused() -> None:
    tournament = bot_event(NAMES, ruleset="jdf", games_per_set=1, slug="jdf-bots")
    with pytest.raises(GameError) as refused:
        serve(tournament, port=0)
    assert refused.value.code == "uecda_rules_unsupported"
