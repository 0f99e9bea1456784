"""Rule 10: n tens discard n chosen cards; none when the tens are the finishing play."""

from __future__ import annotations

from games.engine.daizaibatsu import Move, pending
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def test_two_tens_discard_two_cards() -> None:
    state = game(["TS TH 3C 4C 9D", "5D", "7H", "9S"])
    state, _ = play(state, 0, "TS TH")
    assert pending(state) == (Decision(0, "discard", 2, None),)
    state, kinds = decide(state, Move.cards_for(0, "discard", "3C 4C"))
    assert kinds == ["discarded"]
    assert hand(state, 0) == ["9D"] and len(state.discarded) == 2


def test_tens_that_finish_discard_nothing() -> None:
    state = game(["TS", "5D", "7H", "9S"])
    state, kinds = play(state, 0, "TS")
    assert kinds == ["played", "finished"]
    assert pending(state) == ()


def test_a_discard_that_empties_the_hand_goes_out() -> None:
    state = game(["TS 3C", "5D", "7H", "9S"])
    state, _ = play(state, 0, "TS")
    state, kinds = decide(state, Move.cards_for(0, "discard", "3C"))
    assert kinds == ["discarded", "finished"]
