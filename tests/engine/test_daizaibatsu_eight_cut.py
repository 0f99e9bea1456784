"""Rule 8 with F3: an 8 ends the trick and its player leads; until that lead, another player
may answer out of turn with 砂嵐, four 3s or a stairs revolution holding a 3; nothing else cuts
it."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, apply, to_move
from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, play


def eight_cut(second: str = "3H 3C 3D 9C"):  # type: ignore[no-untyped-def]
    state = game(["8S 6C 6D", second, "JK 9D", "4H 9H"])
    state, kinds = play(state, 0, "8S")
    assert kinds == ["played", "eight_cut", "trick_cleared"]
    assert state.table is None and state.turn == 0
    return state


def respond(state, seat: int, cards: str):  # type: ignore[no-untyped-def]
    return apply(state, Move.play(seat, cards, respond=True))


def test_a_sandstorm_may_answer_before_the_cutter_leads() -> None:
    state = eight_cut()
    assert 1 in to_move(state)
    state, events = respond(state, 1, "3H 3C 3D")
    assert [e.kind for e in events] == ["played", "sandstorm", "trick_cleared"]
    assert state.turn == 1


def test_a_joker_cannot_answer_an_eight_cut() -> None:
    with pytest.raises(IllegalMove) as caught:
        respond(eight_cut(), 2, "JK")
    assert caught.value.code == "no_cut"


def test_four_threes_answer_and_revolt_pending() -> None:
    state, events = respond(eight_cut("3H 3C 3D 3S 9C"), 1, "3H 3C 3D 3S")
    assert [e.kind for e in events] == ["played", "revolution_pending"]
    assert state.turn == 2


def test_stairs_revolution_with_a_three_answers() -> None:
    state, events = respond(eight_cut("3H 4H 5H 6H 9C"), 1, "3H 4H 5H 6H")
    assert "revolution" in [e.kind for e in events]
    assert state.revolution


def test_the_window_closes_when_the_cutter_leads() -> None:
    state, _ = play(eight_cut(), 0, "6C")
    with pytest.raises(IllegalMove) as caught:
        respond(state, 1, "3H 3C 3D")
    assert caught.value.code == "not_your_turn"


def test_without_the_window_nobody_answers() -> None:
    state = game(["8S 6C", "3H 3C 3D 9C", "JK 9D", "4H 9H"], eight_cut_window=False)
    state, _ = play(state, 0, "8S")
    assert to_move(state) == (0,)
