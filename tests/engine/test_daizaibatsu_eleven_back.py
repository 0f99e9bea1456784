"""Rule 11: a J is a compulsory 11-back that reverses the order until the trick flows, XOR the
revolution (DZ-T07)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move
from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import decide, game, pass_, play


def revolution_with_a_queen_on_the_table():  # type: ignore[no-untyped-def]
    state = game(["QS 5C 6C", "9C 9D", "JH 4D", "KD TD 4S"])
    state = state._replace(revolution=True)
    state, _ = play(state, 0, "QS")
    # The queen: every player gives one card to the next.
    for seat, card in ((0, "5C"), (1, "9C"), (2, "4D"), (3, "4S")):
        state, _ = decide(state, Move.cards_for(seat, "give", card))
    state, _ = pass_(state, 1)
    return state


def test_a_jack_beats_a_queen_during_a_revolution_and_turns_the_order_back() -> None:
    state, kinds = play(revolution_with_a_queen_on_the_table(), 2, "JH")
    assert kinds == ["played", "eleven_back"]
    assert state.back and not state.reversed_order


def test_then_a_king_beats_it_and_a_ten_does_not() -> None:
    state, _ = play(revolution_with_a_queen_on_the_table(), 2, "JH")
    with pytest.raises(IllegalMove) as caught:
        play(state, 3, "TD")
    assert caught.value.code == "not_stronger"
    state, kinds = play(state, 3, "KD")
    assert kinds[0] == "played"


def test_after_the_trick_flows_the_order_is_reversed_again() -> None:
    state, _ = play(revolution_with_a_queen_on_the_table(), 2, "JH")
    for seat in (3, 0):
        state, _ = pass_(state, seat)
    assert state.table is None
    assert not state.back and state.reversed_order
