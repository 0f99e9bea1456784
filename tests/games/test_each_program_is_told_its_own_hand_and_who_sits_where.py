"""What a UECda program is told on its turn follows the C kit's reading of the table: rows 0–4
its own hand (no one else's cards), ``[5][3]`` its player number (table position − 1),
``[6][p]`` each player's card count, and ``[6][10 + s]`` the player number sitting at seat
``s`` in the order of play (the game's seating)."""

from __future__ import annotations

import pytest

from games.engine.cards import card_names
from games.engine.uecda import table_to_cards
from games.models import Game
from games.seating import positions_of
from tests.factories import bot_event
from tests.games.uecda_clients import bridge_thread, bundled_bot, run_clients
from tournaments.models import Seat

NAMES = ("bot1", "bot2", "bot3", "bot4", "bot5")


@pytest.mark.django_db(transaction=True)
def test_a_programs_turn_table_names_it_and_the_seats() -> None:
    bot = bundled_bot()
    tournament = bot_event(NAMES, games_per_set=1)
    seen: dict[str, list[list[list[int]]]] = {name: [] for name in NAMES}

    def run(name: str, port: int) -> None:
        def watching(hand: int, mine: list[list[int]], field: int, field_as: int) -> int:
            seen[name].append([list(row) for row in mine])
            return int(bot.choose(hand, mine, field, field_as))

        bot.connect_and_play("127.0.0.1", port, name, watching)

    with bridge_thread(tournament, rounds=1) as port:
        run_clients(port, NAMES, run)

    game = Game.objects.get(table__round__stage__tournament=tournament)
    players_at_seats = [position - 1 for position in positions_of(game)]
    position_of = {
        seat.entry.player.bot_name: seat.position
        for seat in Seat.objects.filter(table=game.table).select_related("entry__player")
    }
    dealt = [set(hand) for hand in game.hands or []]
    for name, tables in seen.items():
        assert tables, f"{name} had no turn"
        me = position_of[name] - 1
        my_seat = players_at_seats.index(me)
        for table in tables:
            assert table[5][2] == 1 and table[5][3] == me
            assert table[6][10:15] == players_at_seats
            hand, _ = table_to_cards(table)
            assert table[6][me] == hand.bit_count()
            # Its own cards only (a set's first game: no exchange, so a part of its deal).
            assert set(card_names(hand)) <= dealt[my_seat]
