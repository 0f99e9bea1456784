"""Rule 4: n fours draw 4n from the top of the pile; four fours also make a revolution that
applies once everyone else has passed: the others draw 2 each and the player leads (DZ-T10)."""

from __future__ import annotations

from .daizaibatsu_helpers import game, hand, pass_, play

PILE = ["5S", "5H", "5D", "5C", "6S", "6H", "6D", "6C"] + ["7S"] * 2 + ["7H"] * 2 + ["8S"] * 2
PILE += ["8H"] * 2 + ["8D"] * 2 + ["8C"] * 2 + ["9S"] * 2 + ["9H"] * 2 + ["TS"] * 2 + ["TH"] * 2


def test_one_four_draws_four_from_the_top() -> None:
    state = game(["4S 3C", "3D", "3H", "3S"], pile=PILE)
    state, kinds = play(state, 0, "4S")
    assert kinds == ["played", "drew"]
    assert hand(state, 0) == ["3C", "5S", "5H", "5D", "5C"]
    assert state.pile_count == len(PILE) - 4


def test_four_fours_draw_sixteen_and_revolt_when_all_pass() -> None:
    state = game(["4S 4H 4D 4C 3C", "3D", "3H", "3S"], pile=PILE)
    state, kinds = play(state, 0, "4S 4H 4D 4C")
    assert kinds == ["played", "drew", "revolution_pending"]
    assert state.counts[0] == 1 + 16
    assert not state.revolution
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, kinds = pass_(state, 3)
    assert kinds == ["passed", "revolution", "drew", "drew", "drew", "trick_cleared"]
    assert state.revolution
    assert state.counts[1:] == (3, 3, 3)
    assert state.table is None and state.turn == 0


def test_a_four_going_out_draws_and_stays_in() -> None:
    state = game(["4S", "3D", "3H", "3S"], pile=PILE)
    state, kinds = play(state, 0, "4S")
    assert "finished" not in kinds
    assert state.counts[0] == 4
