"""Quick mode for a 大財閥 game: the referee gives only the finishing order (every seat once,
first place first) and the places carry the titles of a played game. The family has no fouls
nor 都落ち, so a quick result naming them is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Game
from tests.factories import UserFactory, daizaibatsu_table
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee() -> User:
    return UserFactory(username="ref-sato")


@pytest.fixture
def quick_game(referee: User) -> Game:
    table: Table = daizaibatsu_table(referee)
    return services.start_game(table, referee, mode=Game.Mode.QUICK)


def test_the_finishing_order_gives_places_and_titles(quick_game: Game, referee: User) -> None:
    results = services.record_quick_result(quick_game, referee, [2, 0, 3, 1]).results

    assert [(r.seat, r.place, r.detail["title"]) for r in results] == [
        (2, 1, "daifugo"),
        (0, 2, "fugo"),
        (3, 3, "hinmin"),
        (1, 4, "daihinmin"),
    ]
    quick_game.refresh_from_db()
    assert quick_game.status == Game.Status.FINISHED


def test_a_quick_game_has_no_pile_and_no_hands(quick_game: Game) -> None:
    assert quick_game.hands == [None] * 4
    assert quick_game.pile is None


@pytest.mark.parametrize(
    ("order", "fouls", "miyako", "code"),
    [
        ([2, 0, 3], [1], None, "quick_not_in_family"),
        ([2, 0, 3, 1], [], 0, "quick_not_in_family"),
        ([2, 0, 3], [], None, "quick_missing_place"),
        ([2, 0, 2, 1], [], None, "quick_duplicate_place"),
    ],
)
def test_fouls_miyako_ochi_and_missing_seats_are_refused(
    quick_game: Game,
    referee: User,
    order: list[int],
    fouls: list[int],
    miyako: int | None,
    code: str,
) -> None:
    with pytest.raises(services.GameError) as refused:
        services.record_quick_result(quick_game, referee, order, fouls, miyako)

    assert refused.value.code == code
    assert not quick_game.results.exists()
