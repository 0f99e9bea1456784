"""Quick mode: only the finishing order, fouls and 都落ち; the engine's title rules place them."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import GameError, record_quick_result, submit_move
from tests.factories import GameFactory

from .conftest import Crew

pytestmark = pytest.mark.django_db

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]


def quick_game(crew: Crew, titles: list[str] | None = None) -> Game:
    game: Game = GameFactory(
        table=crew.table, mode=Game.Mode.QUICK, hands=[None] * 4, counts=[13] * 4, titles=titles
    )
    return game


def placed(game: Game) -> list[tuple[int, int, str, bool, bool, int]]:
    return [
        (r.seat, r.place, r.detail["title"], r.detail["foul"], r.detail["miyako_ochi"], r.points)
        for r in game.results.order_by("place")
    ]


def test_jdf_t16_a_foul_plus_miyako_ochi(crew: Crew) -> None:
    # REFERENCE §1.4 JDF-T16: P3 大富豪, P4 富豪, P1 貧民 (都落ち), P2 大貧民 (foul).
    game = quick_game(crew, TITLES)

    record_quick_result(game, crew.referee, finishing_order=[2, 3], fouls=[1], miyako_ochi=0)

    assert placed(game) == [
        (2, 1, "daifugo", False, False, 3),
        (3, 2, "fugo", False, False, 2),
        (0, 3, "hinmin", False, True, 1),
        (1, 4, "daihinmin", True, False, 0),
    ]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_jdf_t17_two_fouls_no_miyako_ochi(crew: Crew) -> None:
    # REFERENCE §1.4 JDF-T17: P4 大富豪, P1 富豪, P3 貧民, P2 大貧民 (first foul is last).
    game = quick_game(crew)

    record_quick_result(game, crew.referee, finishing_order=[3, 0], fouls=[1, 2])

    assert placed(game) == [
        (3, 1, "daifugo", False, False, 3),
        (0, 2, "fugo", False, False, 2),
        (2, 3, "hinmin", True, False, 1),
        (1, 4, "daihinmin", True, False, 0),
    ]


def test_jdf_t15_the_fallen_daifugo_is_last(crew: Crew) -> None:
    game = quick_game(crew, TITLES)

    record_quick_result(game, crew.referee, finishing_order=[2, 3, 1], miyako_ochi=0)

    assert [(s, p, t) for s, p, t, *_ in placed(game)] == [
        (2, 1, "daifugo"),
        (3, 2, "fugo"),
        (1, 3, "hinmin"),
        (0, 4, "daihinmin"),
    ]


@pytest.mark.parametrize(
    ("order", "fouls", "miyako", "code"),
    [
        ([0, 1, 2], [], None, "quick_missing_place"),
        ([0, 1, 2, 2], [], None, "quick_duplicate_place"),
        ([1, 2, 3], [], 0, "quick_miyako_invalid"),  # no previous game: nobody can fall
    ],
)
def test_incomplete_or_impossible_results_are_refused(
    crew: Crew, order: list[int], fouls: list[int], miyako: int | None, code: str
) -> None:
    game = quick_game(crew)

    with pytest.raises(GameError) as caught:
        record_quick_result(game, crew.referee, order, fouls, miyako)

    assert caught.value.code == code
    assert not game.results.exists()


def test_a_daifugo_beaten_to_the_first_finish_must_be_marked_miyako_ochi(crew: Crew) -> None:
    game = quick_game(crew, TITLES)

    with pytest.raises(GameError) as caught:
        record_quick_result(game, crew.referee, finishing_order=[2, 3, 0, 1])

    assert caught.value.code == "quick_miyako_missing"


def test_a_quick_game_takes_no_moves(crew: Crew) -> None:
    game = quick_game(crew)

    outcome = submit_move(game, {"seat": 0, "pass": True}, 1, crew.referee)

    assert (outcome.http_status, outcome.code) == (422, "quick_game")
