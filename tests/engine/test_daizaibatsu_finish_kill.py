"""Rule 23 (上がり殺し): when another player goes out, a holder of the kill card with at least
two cards may discard it out of turn; the finish is cancelled, the finisher takes the table's
cards, and the killer leads (DZ-T13, with 6s so that no other effect comes between)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, apply, to_move
from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, hand, pass_, play


def seat_two_goes_out(killer_hand: str = "7S 3D 3H"):  # type: ignore[no-untyped-def]
    state = game([killer_hand, "3H 9C", "6S", "3C 4C"], leader=1, finish_kill_card="7S")
    state, _ = play(state, 1, "3H")
    state, kinds = play(state, 2, "6S")
    assert kinds[-1] == "finished"
    return state


def kill(state):  # type: ignore[no-untyped-def]
    return apply(state, Move.play(0, "7S", respond=True))


def test_the_holder_of_the_kill_card_may_answer() -> None:
    assert to_move(seat_two_goes_out()) == (0, 3)


def test_the_kill_cancels_the_finish_and_the_finisher_takes_the_table() -> None:
    state, events = kill(seat_two_goes_out())
    assert [e.kind for e in events] == ["finish_killed", "trick_cleared"]
    assert hand(state, 2) == ["3H", "6S"]
    assert state.out == ()
    assert state.turn == 0 and state.table is None
    assert hand(state, 0) == ["3H", "3D"]
    assert len(state.discarded) == 1


def test_the_killer_needs_two_cards() -> None:
    with pytest.raises(IllegalMove) as caught:
        kill(seat_two_goes_out("7S"))
    assert caught.value.code == "choice_invalid"


def test_the_window_closes_with_the_next_regular_move() -> None:
    state, _ = pass_(seat_two_goes_out(), 3)
    with pytest.raises(IllegalMove) as caught:
        kill(state)
    assert caught.value.code == "not_your_turn"


def test_without_a_kill_card_nobody_answers() -> None:
    state = game(["7S 3D 3H", "3H 9C", "6S", "3C 4C"], leader=1, finish_kill_card="off")
    state, _ = play(state, 1, "3H")
    state, _ = play(state, 2, "6S")
    assert to_move(state) == (3,)
