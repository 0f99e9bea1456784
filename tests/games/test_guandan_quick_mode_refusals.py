"""A quick Guandan result names the seats in finishing order as far as they decide the hand,
each once; it has no fouls nor 都落ち, and the aces-only finish only where the rules know it.
A refused entry changes nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.factories import UserFactory, guandan_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_hand() -> tuple[Game, object]:
    referee = UserFactory()
    table = guandan_table(referee)
    return services.start_game(table, referee, mode=Game.Mode.QUICK), referee


@pytest.mark.parametrize(
    ("order", "fouls", "miyako", "code"),
    [
        ([0], (), None, "quick_order_invalid"),  # decides nothing
        ([0, 1], (), None, "quick_order_invalid"),  # opponents 1st and 2nd: 1-3 or 1-4?
        ([0, 0, 2], (), None, "quick_duplicate_place"),  # a seat twice
        ([0, 5, 2], (), None, "quick_seat_not_at_table"),  # no such seat
        ([0, 2], (1,), None, "quick_not_in_family"),
        ([0, 2], (), 1, "quick_not_in_family"),
    ],
)
def test_an_order_that_does_not_decide_the_hand_or_has_fouls_is_refused(
    quick_hand: tuple[Game, object], order: list[int], fouls: tuple[int, ...], miyako: int | None,
    code: str,
) -> None:  # fmt: skip
    game, referee = quick_hand
    with pytest.raises(services.GameError) as refused:
        services.record_quick_result(game, referee, order, fouls, miyako)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert refused.value.message_ja
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY and not game.results.exists()


def test_aces_only_is_refused_where_the_rules_do_not_know_it(
    quick_hand: tuple[Game, object],
) -> None:
    game, referee = quick_hand  # guandan-cn: aces_finish_demotes is off
    with pytest.raises(services.GameError) as refused:
        services.record_quick_result(game, referee, [0, 2], aces_only=True)  # type: ignore[arg-type]
    assert refused.value.code == "aces_only_not_in_rules"


def test_under_pagat_an_aces_only_finish_sends_the_ace_team_back_to_two() -> None:
    referee = UserFactory()
    table = guandan_table(referee, ruleset_id="guandan-pagat")
    for _ in range(4):  # team 0 to A by 1-2 finishes
        game = services.start_game(table, referee, mode=Game.Mode.QUICK)
        services.record_quick_result(game, referee, [0, 2])
    at_ace = services.start_game(table, referee, mode=Game.Mode.QUICK)

    services.record_quick_result(at_ace, referee, [1, 0, 2], aces_only=True)

    team0 = at_ace.results.get(seat=0).detail
    assert team0["team_level"] == "2" and team0["demoted"] and team0["failed_at_a"]
    following = services.start_game(table, referee, mode=Game.Mode.QUICK)
    assert following.match is not None
    assert following.match["levels"] == ["2", "3"]
