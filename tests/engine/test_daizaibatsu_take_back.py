"""Rule 14: n aces take back n of the cards played, cut, discarded or destroyed just before;
it applies when going out, so an ace never finishes a hand (DZ-T05, here on a 6 so that no
other effect comes between)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, pass_, play


def ace_on_a_six():  # type: ignore[no-untyped-def]
    state = game(["3D 4C", "6D 9C", "AS", "5C"], leader=1)
    state, _ = play(state, 1, "6D")
    state, kinds = play(state, 2, "AS")
    assert kinds == ["played"]
    return state


def test_the_ace_owes_a_take_of_one_card() -> None:
    assert pending(ace_on_a_six()) == (Decision(2, "take", 1, None),)


def test_the_last_ace_takes_the_six_back_and_the_player_is_still_in() -> None:
    state, kinds = decide(ace_on_a_six(), Move.cards_for(2, "take", "6D"))
    assert kinds == ["took_back"]
    assert hand(state, 2) == ["6D"]
    assert state.out == ()
    assert state.turn == 3


def test_only_the_cards_just_before_may_be_taken() -> None:
    with pytest.raises(IllegalMove) as caught:
        decide(ace_on_a_six(), Move.cards_for(2, "take", "3D"))
    assert caught.value.code == "choice_invalid"


def test_an_ace_takes_back_a_discard() -> None:
    state = game(["3D 4C", "TD 9C 8C", "KS AS", "5C"], leader=1)
    state, _ = play(state, 1, "TD")
    state, _ = decide(state, Move.cards_for(1, "discard", "9C"))
    state, _ = play(state, 2, "AS")
    state, _ = decide(state, Move.cards_for(2, "take", "9C"))
    assert hand(state, 2) == ["9C", "KS"]
    assert len(state.discarded) == 0


def test_an_ace_leading_after_a_flow_takes_nothing() -> None:
    state = game(["6D AS 3C", "4D", "4H", "4C"])
    state, _ = play(state, 0, "6D")
    for seat in (1, 2, 3):
        state, _ = pass_(state, seat)
    state, kinds = play(state, 0, "AS")
    assert kinds == ["played"]
    assert pending(state) == () and hand(state, 0) == ["3C"]


def test_an_ace_right_after_a_cut_takes_the_cut_card() -> None:
    state = game(["8D AS 3C", "4D", "4H", "4C"])
    state, _ = play(state, 0, "8D")
    state, _ = play(state, 0, "AS")
    assert pending(state) == (Decision(0, "take", 1, None),)
    state, _ = decide(state, Move.cards_for(0, "take", "8D"))
    assert hand(state, 0) == ["3C", "8D"]
