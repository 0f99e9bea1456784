"""A Guandan hand entered by its finishing order alone (quick mode) is settled by the same
engine function as a hand played out: the seats that went out, in order, give the same
results and the same next match as the final state does."""

from __future__ import annotations

import random

import pytest

from games.engine.errors import RulesError
from games.engine.guandan import (
    GUANDAN_CN,
    PHASE_OVER,
    apply,
    complete_order,
    deal_hands,
    hand_result,
    legal_moves,
    new_game,
    outcome,
    settle_hand,
)


@pytest.mark.parametrize("seed", range(4))
def test_the_seats_out_settle_the_hand_as_its_final_state_does(seed: int) -> None:
    pick = random.Random(seed)
    state = new_game(GUANDAN_CN, deal_hands(f"settle-{seed}", GUANDAN_CN), leader=seed % 4)
    while state.phase != PHASE_OVER:
        moves = list(legal_moves(state))
        plays = [m for m in moves if m.action != "pass"]
        state, _ = apply(state, pick.choice(plays) if plays and pick.random() < 0.7 else moves[0])

    result, seats = settle_hand(GUANDAN_CN, state.setup.match, state.out)

    assert result == hand_result(state)
    assert seats == outcome(state)


def test_an_order_is_completed_in_the_direction_of_play() -> None:
    assert complete_order([2, 0]) == (2, 0, 1, 3)
    assert complete_order([3, 0, 1]) == (3, 0, 1, 2)
    for undecided in ([], [1], [1, 2], [0, 0, 2], [0, 4, 1]):
        with pytest.raises(RulesError):
            complete_order(undecided)
