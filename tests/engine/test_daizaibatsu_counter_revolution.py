"""Rules 20–21 with F10 and F15: a 4+ set revolution waits for everyone to pass; a stronger or
larger set answers it (革命返し); each revolution of the chain toggles the order, and with n
counter-revolutions everyone but the last revolutionary draws 2n, finished players coming back
into play (DZ-T12)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, pass_, play


def test_five_fives_answer_four_fours_and_the_order_stays_normal() -> None:
    state = game(["4S 4H 4D 4C 3C", "5S 5H 5D 5C 5S 3D", "3H", "3S"])
    state, _ = play(state, 0, "4S 4H 4D 4C")
    assert state.counts[0] == 1 + 16
    state, kinds = play(state, 1, "5S 5H 5D 5C 5S")
    assert kinds == [
        "played",
        "counter_revolution",
        "skipped",
        "revolution",
        "drew",
        "drew",
        "drew",
        "trick_cleared",
    ]
    assert not state.revolution
    assert state.counts == (17 + 2, 1, 1 + 2, 1 + 2)
    assert state.table is None and state.turn == 1


def test_a_weaker_four_card_set_does_not_answer() -> None:
    state = game(["6S 6H 6D 6C 3C", "4S 4H 4D 4C 3D", "3H", "3S"])
    state, _ = play(state, 0, "6S 6H 6D 6C")
    with pytest.raises(IllegalMove) as caught:
        play(state, 1, "4S 4H 4D 4C")
    assert caught.value.code == "not_stronger"


def test_a_four_card_set_is_too_big_for_a_single() -> None:
    state = game(["3C 9D", "6S 6H 6D 6C 3D", "3H", "3S"])
    state, _ = play(state, 0, "3C")
    with pytest.raises(IllegalMove) as caught:
        play(state, 1, "6S 6H 6D 6C")
    assert caught.value.code == "too_small_a_table"


def test_without_toggles_the_chain_reverses_once() -> None:
    state = game(["6S 6H 6D 6C 3C", "9S 9H 9D 9C 3D", "3H", "3S"], counter_toggles=False)
    state, _ = play(state, 0, "6S 6H 6D 6C")
    state, _ = play(state, 1, "9S 9H 9D 9C")  # reverses the direction: seat 0 is next
    for seat in (0, 3, 2):
        state, _ = pass_(state, seat)
    assert state.revolution


def test_finished_players_draw_and_come_back() -> None:
    state = game(["3C", "6S 6H 6D 6C 3D", "9S 9H 9D 9C 9S 3H", "3S 4H"])
    state, _ = play(state, 0, "3C")  # seat 0 goes out
    assert state.out == (0,)
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)  # seat 1 leads
    state, _ = play(state, 1, "6S 6H 6D 6C")
    state, kinds = play(state, 2, "9S 9H 9D 9C 9S")
    # the 9s reversed the direction: seat 1, then seat 3 pass
    state, _ = pass_(state, 1)
    state, kinds = pass_(state, 3)
    assert "returned_to_play" in kinds
    assert state.out == () and state.counts[0] == 2


def test_the_switch_leaves_finished_players_out() -> None:
    state = game(
        ["3C", "6S 6H 6D 6C 3D", "9S 9H 9D 9C 9S 3H", "3S 4H"],
        counter_draw_returns_finished=False,
    )
    state, _ = play(state, 0, "3C")
    for seat in (1, 2, 3):
        state, _ = pass_(state, seat)
    state, _ = play(state, 1, "6S 6H 6D 6C")
    state, _ = play(state, 2, "9S 9H 9D 9C 9S")
    state, _ = pass_(state, 1)
    state, kinds = pass_(state, 3)
    assert "returned_to_play" not in kinds and state.out == (0,)
