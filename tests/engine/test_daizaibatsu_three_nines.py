"""Rule 9 and F7: three 9s reverse the direction, revolt at once, and their player names
someone who draws 3; a joker discarded by the target doubles it back (倍返し): the player of
the 9s draws 6 (F13, DZ-T11)."""

from __future__ import annotations

from games.engine.daizaibatsu import Move, pending
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, play


def three_nines_named_seat_two():  # type: ignore[no-untyped-def]
    state = game(["9S 9H 9D 3C", "3D 4D", "JK 3H", "3S 4S"])
    state, kinds = play(state, 0, "9S 9H 9D")
    assert kinds == ["played", "reversed"]
    assert state.direction == -1
    assert pending(state) == (Decision(0, "target", 3, None),)
    state, kinds = decide(state, Move.choose_target(0, 2))
    assert pending(state) == (Decision(2, "double_back", 3, 0),)
    return state


def test_accepting_draws_three_then_the_revolution_applies_at_once() -> None:
    state, kinds = decide(three_nines_named_seat_two(), Move.answer(2, False))
    assert kinds == ["drew", "revolution", "drew", "drew", "drew"]
    assert state.revolution
    assert state.counts == (1, 2 + 2, 2 + 3 + 2, 2 + 2)


def test_a_joker_doubles_it_back_onto_the_player_of_the_nines() -> None:
    state, kinds = decide(three_nines_named_seat_two(), Move.answer(2, True))
    assert kinds[:2] == ["double_back", "drew"]
    assert state.counts[0] == 1 + 6
    assert state.counts[2] == 1 + 2  # the joker gone, then the revolution's 2


def test_a_target_without_a_joker_draws_at_once() -> None:
    state = game(["9S 9H 9D 3C", "3D 4D", "5H 3H", "3S 4S"])
    state, _ = play(state, 0, "9S 9H 9D")
    state, kinds = decide(state, Move.choose_target(0, 1))
    assert kinds[0] == "drew" and state.counts[1] == 2 + 3 + 2
