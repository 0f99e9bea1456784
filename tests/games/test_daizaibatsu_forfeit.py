"""A player who leaves a 大財閥 game mid-way (途中棄権) is placed last; those already out keep
their places, the others follow by fewest cards left (the tournament's default rule) or in
the order the referee gives; places are titled as a played game's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Game
from tests.factories import OfficialFactory, UserFactory, daizaibatsu_game, daizaibatsu_table
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db

PILE = ["3H", "3S", "4S", "5H", "5C", "6D", "6H", "7D"]


@pytest.fixture
def head() -> User:
    return UserFactory(username="head-endo")


@pytest.fixture
def table(head: User) -> Table:
    referee = UserFactory(username="ref-sato")
    table = daizaibatsu_table(referee)
    tournament = table.round.stage.tournament
    OfficialFactory(tournament=tournament, user=head, role=Official.Role.HEAD_REFEREE)
    return table


def test_the_leaver_is_last_and_the_others_follow_by_cards_left(table: Table, head: User) -> None:
    # Seat 1 goes out first with its last card, a 5 (rule 5: seat 2 is skipped).
    game: Game = daizaibatsu_game(
        table, [["5D"], ["9H", "6C", "3D"], ["8D", "TD"], ["3C", "AH", "QS", "KD"]], PILE, leader=0
    )
    assert services.submit_move(game, {"seat": 0, "play": ["5D"]}, 1, head).ok

    services.forfeit_seat(game, head, seat=2, reason="felt unwell")

    results = {r.seat: (r.place, r.detail["title"]) for r in game.results.all()}
    assert results == {
        0: (1, "daifugo"),
        1: (2, "fugo"),  # 3 cards
        3: (3, "hinmin"),  # 4 cards
        2: (4, "daihinmin"),  # the leaver
    }


def test_a_quick_game_takes_the_referees_order(table: Table, head: User) -> None:
    game = services.start_game(table, head, mode=Game.Mode.QUICK)

    services.forfeit_seat(game, head, seat=0, reason="left", order=[3, 1, 2])

    assert [r.seat for r in game.results.order_by("place")] == [3, 1, 2, 0]


def test_a_player_already_out_cannot_forfeit(table: Table, head: User) -> None:
    game: Game = daizaibatsu_game(
        table, [["5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    assert services.submit_move(game, {"seat": 0, "play": ["5D"]}, 1, head).ok

    with pytest.raises(services.GameError) as refused:
        services.forfeit_seat(game, head, seat=0, reason="left")

    assert refused.value.code == "forfeit_already_out"


def test_the_game_page_offers_the_forfeit_of_those_still_in(
    client: Client, table: Table, head: User
) -> None:
    game: Game = daizaibatsu_game(
        table, [["5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    assert services.submit_move(game, {"seat": 0, "play": ["5D"]}, 1, head).ok
    client.force_login(head)

    page = client.get(f"/referee/games/{game.pk}/")

    assert page.status_code == 200
    assert page.context["forfeit"]["still_in"] == [1, 2, 3]  # seat 1 went out
