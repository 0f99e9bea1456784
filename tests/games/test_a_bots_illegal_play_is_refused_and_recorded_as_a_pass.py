"""A UECda program that plays a card it does not hold gets the reference server's answer 8
(refused), the engine's refusal is kept like a referee's, and its turn is recorded as a pass;
the game goes on with the other programs and ends confirmed."""

from __future__ import annotations

import pytest

from games.models import Game, RejectedSubmission
from games.uecda_bridge import ACCEPT, REJECT
from tests.factories import bot_event
from tests.games.uecda_clients import bridge_thread, bundled_bot, run_clients

NAMES = ("bot1", "bot2", "bot3", "bot4", "cheat")


@pytest.mark.django_db(transaction=True)
def test_a_card_not_held_is_answered_8_and_recorded_as_a_pass() -> None:
    bot = bundled_bot()
    tournament = bot_event(NAMES, games_per_set=1)
    tried: list[int] = []

    def cheat(hand: int, mine: list[list[int]], field: int, field_as: int) -> int:
        if tried:
            return int(bot.choose(hand, mine, field, field_as))
        tried.append(next(1 << card for card in range(52) if not hand >> card & 1))
        return tried[0]

    answers: dict[str, list[int]] = {}

    def run(name: str, port: int) -> None:
        chooser = cheat if name == "cheat" else bot.choose
        answers[name] = bot.connect_and_play("127.0.0.1", port, name, chooser)

    with bridge_thread(tournament, rounds=1) as port:
        run_clients(port, NAMES, run)

    assert answers["cheat"][0] == REJECT
    assert ACCEPT in answers["bot1"]
    game = Game.objects.get(table__round__stage__tournament=tournament)
    assert game.status == Game.Status.CONFIRMED
    seat = next(r.seat for r in game.results.all() if r.entry.player.bot_name == "cheat")
    first = game.moves.filter(seat=seat).exclude(payload__has_key="give").order_by("seq").first()
    assert first is not None and first.payload == {"seat": seat, "pass": True}
    refused = RejectedSubmission.objects.get(game=game, seq=first.seq)
    assert refused.payload["seat"] == seat and refused.code
