"""Rule 5: n fives skip 2n − 1 players still in, in the current direction (F5); skipped
players count as passed, and a skip all the way round clears the trick for the player (DZ-T03)."""

from __future__ import annotations

from .daizaibatsu_helpers import game, pass_, play


def test_one_five_skips_the_next_player() -> None:
    state = game(["5H 9C", "6D 7D", "6S 7S", "6H 7H"])
    state, kinds = play(state, 0, "5H")
    assert kinds == ["played", "skipped"]
    assert state.turn == 2 and state.passed == 1 << 1


def test_two_fives_skip_everyone_and_the_player_leads() -> None:
    state = game(["5H 5D 9C", "6D 7D", "6S 7S", "6H 7H"])
    state, kinds = play(state, 0, "5H 5D")
    assert kinds == ["played", "skipped", "trick_cleared"]
    assert state.table is None and state.turn == 0


def _seat_one_out_and_seat_zero_to_lead(**overrides: object):  # type: ignore[no-untyped-def]
    state = game(["8C 5H 9D", "3C", "6S 8S", "7H 8H"], leader=1, **overrides)
    state, _ = play(state, 1, "3C")  # seat 1 goes out
    state, _ = play(state, 2, "6S")
    state, _ = pass_(state, 3)
    state, _ = play(state, 0, "8C")  # 8-cut: seat 0 leads
    return state


def test_finished_players_are_not_counted() -> None:
    state, kinds = play(_seat_one_out_and_seat_zero_to_lead(), 0, "5H")
    assert kinds == ["played", "skipped"]
    assert state.passed >> 2 & 1 and state.turn == 3


def test_the_f5_switch_counts_finished_seats() -> None:
    state = _seat_one_out_and_seat_zero_to_lead(skip_counts_finished=True)
    state, _ = play(state, 0, "5H")
    assert state.turn == 2


def test_the_skip_follows_the_direction() -> None:
    state = game(["9S 5C 7C", "6D 7D", "6S 7S", "5H 7H"])
    state, _ = play(state, 0, "9S")  # reverses: seat 3 is next
    assert state.turn == 3
    for seat in (3, 2, 1):
        state, _ = pass_(state, seat)
    state, kinds = play(state, 0, "5C")  # skips seat 3, seat 2 follows
    assert kinds == ["played", "skipped"]
    assert state.turn == 2


def test_skipped_players_stay_passed_until_the_trick_flows() -> None:
    state = game(["5H 9C", "6D 7D", "6S 7S", "6H 7H"])
    state, _ = play(state, 0, "5H")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    assert state.table is None and state.turn == 0
