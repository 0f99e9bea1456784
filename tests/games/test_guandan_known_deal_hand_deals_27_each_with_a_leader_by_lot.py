"""A team match's first known-deal hand (掼蛋 Guandan): 27 cards a seat from the round's seed,
no blind cards, no titles, the drawn positions kept, both teams at level 2 and a leader drawn
by lot from the seed."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.factories import UserFactory, guandan_table
from tournaments.deals import derive_deal, draw_leader

pytestmark = pytest.mark.django_db

SEED = "5e" * 32


def test_the_first_hand_is_dealt_from_the_seed_with_a_leader_by_lot() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)

    game = services.start_game(table, referee)

    assert [len(hand) for hand in game.hands] == [27, 27, 27, 27]
    assert game.counts == [27, 27, 27, 27]
    assert game.blind is None and game.titles is None
    assert game.seating == [1, 2, 3, 4]
    assert game.match == {"levels": ["2", "2"], "failures": [0, 0]}
    assert game.leader == draw_leader(SEED, table=table.number, set_number=1, seats=4)
    deal = derive_deal(
        SEED, ruleset_id="guandan-cn", ruleset_version=1, seats=4, table=1, set_number=1, game=1
    )
    assert sum(len(hand) for hand in deal.hands) == 108
    state = services.current_state(game)
    assert state.turn == game.leader  # type: ignore[attr-defined]


def test_the_leader_by_lot_is_the_same_for_the_same_seed_and_table() -> None:
    draws = {draw_leader(SEED, table=1, set_number=1, seats=4) for _ in range(3)}
    assert len(draws) == 1
    assert {draw_leader(f"{n:064x}", table=1, set_number=1, seats=4) for n in range(40)} == {
        0,
        1,
        2,
        3,
    }


def test_an_open_table_is_refused_for_guandan() -> None:
    referee = UserFactory()
    table = guandan_table(referee)

    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee, mode=Game.Mode.OPEN_TABLE, leader=0)

    assert refused.value.code == "open_table_unsupported"
    assert refused.value.message_ja
    assert not table.games.exists()


def test_a_table_whose_partners_do_not_face_each_other_is_refused() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    first, second = (table.seats.get(position=p).entry for p in (1, 2))
    first.team, second.team = second.team, first.team
    first.save(update_fields=["team"])
    second.save(update_fields=["team"])

    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee)

    assert refused.value.code == "teams_not_facing"
    assert not table.games.exists()
