"""Rule 17: the first play of the table's suit(s) locks them until the trick flows (DZ-T08).
Rule 18: down number, exactly one rank weaker in the same suit(s), then a lock; never on an 8,
J, joker, 砂嵐, revolution or ♠3 (DZ-T09). The plays use ranks whose effects leave the turn
alone (3, 4, 6)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, pass_, play


def code(state, seat: int, cards: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as caught:
        play(state, seat, cards)
    return caught.value.code


def test_a_heart_on_a_heart_locks_hearts() -> None:
    state = game(["4H 3C", "6H 3D", "9S 9H 3S", "4C"])
    state, _ = play(state, 0, "4H")
    state, kinds = play(state, 1, "6H")
    assert kinds == ["played", "lock_started", "hand_opened"]
    assert code(state, 2, "9S") == "suit_locked"
    state, _ = play(state, 2, "9H")


def test_the_lock_ends_when_the_trick_flows() -> None:
    state = game(["4H 3C", "6H 3D", "3H 9S", "4C"])
    state, _ = play(state, 0, "4H")
    state, _ = play(state, 1, "6H")
    for seat in (2, 3, 0):
        state, _ = pass_(state, seat)
    assert state.lock == -1 and state.turn == 1


def test_pairs_lock_on_the_same_two_suits() -> None:
    state = game(["3S 3H 3C", "4S 4H 3D", "6S 6D 6C 6H", "4C"])
    state, _ = play(state, 0, "3S 3H")
    state, kinds = play(state, 1, "4S 4H")
    assert "lock_started" in kinds
    assert code(state, 2, "6S 6D") == "suit_locked"
    state, _ = play(state, 2, "6S 6H")


def test_down_number_one_rank_weaker_in_the_same_suit_then_locks() -> None:
    state = game(["4D 9C", "3D 6D", "9H 9D 3S", "4C"])
    state, _ = play(state, 0, "4D")
    state, kinds = play(state, 1, "3D")
    assert kinds == ["played", "down_number", "lock_started"]
    assert code(state, 2, "9H") == "suit_locked"


def test_down_number_pairs_need_the_same_suits() -> None:
    state = game(["4D 4S 9C", "3D 3S 3H 6D", "9H", "4C"])
    state, _ = play(state, 0, "4D 4S")
    assert code(state, 1, "3D 3H") == "not_stronger"
    state, kinds = play(state, 1, "3D 3S")
    assert "down_number" in kinds


def test_two_ranks_weaker_is_not_down_number() -> None:
    state = game(["6D 9C", "4D 3D", "9H", "4C"])
    state, _ = play(state, 0, "6D")
    assert code(state, 1, "4D") == "not_stronger"


def test_no_down_number_on_a_pending_revolution() -> None:
    state = game(["6S 6H 6D 6C 3C", "5S 5H 5D 5C 3D", "9H", "4C"])
    state, _ = play(state, 0, "6S 6H 6D 6C")
    assert code(state, 1, "5S 5H 5D 5C") == "not_stronger"


def test_no_down_number_on_a_spade_three() -> None:
    state = game(["3S 9C", "4S 3D", "9H", "4C"])._replace(revolution=True)
    state, _ = play(state, 0, "3S")
    assert code(state, 1, "4S") == "not_stronger"


def test_no_down_number_on_a_joker() -> None:
    state = game(["JK 9C", "2S 3D", "9H", "4C"])
    state, _ = play(state, 0, "JK")
    assert code(state, 1, "2S") == "not_stronger"
