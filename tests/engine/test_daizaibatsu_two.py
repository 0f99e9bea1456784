"""Rule 15 and 倍返し: n twos name a player who draws 2n; the target may discard a joker to
double it back, and the player of the twos draws 4n (F13)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, play


def test_two_twos_make_the_named_player_draw_four() -> None:
    state = game(["2S 2H 3C", "5D", "7H", "9S"])
    state, _ = play(state, 0, "2S 2H")
    assert pending(state) == (Decision(0, "target", 4, None),)
    state, kinds = decide(state, Move.choose_target(0, 2))
    assert kinds == ["drew"]
    assert state.counts[2] == 1 + 4


def test_the_player_may_not_name_themselves() -> None:
    state = game(["2S 3C", "5D", "7H", "9S"])
    state, _ = play(state, 0, "2S")
    with pytest.raises(IllegalMove) as caught:
        decide(state, Move.choose_target(0, 0))
    assert caught.value.code == "choice_invalid"


def test_a_joker_doubles_the_draw_back_onto_the_player_of_the_twos() -> None:
    state = game(["2S 2H 3C", "5D JK", "7H", "9S"])
    state, _ = play(state, 0, "2S 2H")
    state, _ = decide(state, Move.choose_target(0, 1))
    assert pending(state) == (Decision(1, "double_back", 4, 0),)
    state, kinds = decide(state, Move.answer(1, True))
    assert kinds == ["double_back", "drew"]
    assert state.counts[0] == 1 + 8
    assert state.counts[1] == 1
