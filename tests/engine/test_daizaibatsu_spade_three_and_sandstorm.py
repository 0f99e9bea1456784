"""Rule 3 and 16: ♠3 × n cuts joker × n (no joker stands in for a ♠3); 砂嵐 (any three 3s)
cuts any table but a revolution, whatever its size (DZ-T01, DZ-T02)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, hand, play


def joker_pair_on_the_table():  # type: ignore[no-untyped-def]
    state = game(["JK JK 9C TC", "3S 3S JK 7H 8H", "9D TD", "9H TH"])
    state, _ = play(state, 0, "JK JK")
    return state


def test_two_spade_threes_cut_two_jokers() -> None:
    state, kinds = play(joker_pair_on_the_table(), 1, "3S 3S")
    assert kinds == ["played", "spade_three_cut", "trick_cleared"]
    assert state.table is None and state.turn == 1


def test_a_joker_may_not_stand_in_for_a_spade_three() -> None:
    with pytest.raises(IllegalMove) as caught:
        play(joker_pair_on_the_table(), 1, "3S JK", "3S")
    assert caught.value.code == "invalid_combination"


def test_nothing_else_beats_jokers() -> None:
    with pytest.raises(IllegalMove) as caught:
        play(joker_pair_on_the_table(), 1, "7H 8H")
    assert caught.value.code in ("not_stronger", "wrong_kind", "invalid_combination")


def test_sandstorm_cuts_a_pair_and_its_player_leads() -> None:
    state = game(["6S 6H 5C", "3H 3C JK 7D", "4D", "4H"])
    state, _ = play(state, 0, "6S 6H")
    state, kinds = play(state, 1, "3H 3C JK", "3D")
    assert kinds == ["played", "sandstorm", "trick_cleared"]
    assert state.table is None and state.turn == 1


def test_sandstorm_cannot_cut_a_pending_revolution() -> None:
    state = game(["6S 6H 6D 6C 5C", "3H 3C 3D 7D", "4D", "4H"])
    state, kinds = play(state, 0, "6S 6H 6D 6C")
    assert "revolution_pending" in kinds
    with pytest.raises(IllegalMove) as caught:
        play(state, 1, "3H 3C 3D")
    assert caught.value.code == "not_stronger"
    assert hand(state, 1) == ["3H", "3D", "3C", "7D"]


def test_sandstorm_cuts_a_single_joker() -> None:
    state = game(["JK 5C", "3H 3C 3D 7D", "4D", "4H"])
    state, _ = play(state, 0, "JK")
    state, kinds = play(state, 1, "3H 3C 3D")
    assert "sandstorm" in kinds and state.turn == 1
