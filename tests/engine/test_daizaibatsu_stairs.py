"""Rule 2 and F12: stairs are 3+ consecutive cards of one suit (jokers stand in, no wrap); the
effects inside run weakest to strongest in the effective order, then a 4+ stairs revolution
applies at once; rule 22: stairs answer stairs of the same length if stronger, and a stairs
revolution also by longer stairs whatever the order."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, apply, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, play


def diamond_four_to_seven():  # type: ignore[no-untyped-def]
    state = game(["4D 5D 6D 7D 3C 3H", "3S 4S 6S 9C", "3H 4H 5H 6H 7H", "TS TC"])
    state, kinds = play(state, 0, "4D 5D 6D 7D")
    assert kinds == ["played", "drew", "hand_opened"]
    assert pending(state) == (Decision(0, "give", 1, 1),)
    return state


def test_diamond_four_to_seven_draws_skips_opens_gives_then_revolts() -> None:
    state, kinds = decide(diamond_four_to_seven(), Move.cards_for(0, "give", "3C"))
    assert kinds == ["gave", "revolution", "drew", "drew", "drew", "skipped"]
    assert state.revolution
    assert state.turn == 2  # seat 1 skipped by the 5


def test_longer_stairs_answer_a_stairs_revolution_whatever_the_order() -> None:
    state, _ = decide(diamond_four_to_seven(), Move.cards_for(0, "give", "3C"))
    state, kinds = play(state, 2, "3H 4H 5H 6H 7H")
    assert kinds == ["played"]  # then the 7's give is owed
    assert pending(state) == (Decision(2, "give", 1, 3),)


def test_a_joker_in_stairs_has_the_effect_of_the_card_it_stands_for() -> None:
    state = game(["3S JK 5S 3C", "9S 9C", "8H 8C", "TS TC"])
    state, events = apply(state, Move.play(0, "3S JK 5S"))
    assert [e.kind for e in events] == ["played", "drew", "skipped"]
    assert events[0].to_dict()["as"] == ["4S"]


def test_a_gap_of_two_is_not_filled_by_one_joker() -> None:
    state = game(["3S JK 6S 3C", "9S", "8H", "TS"])
    with pytest.raises(IllegalMove) as caught:
        play(state, 0, "3S JK 6S")
    assert caught.value.code == "invalid_combination"


def test_no_wrap_from_two_to_three() -> None:
    state = game(["AS 2S 3S 9C", "9S", "8H", "TS"])
    with pytest.raises(IllegalMove) as caught:
        play(state, 0, "AS 2S 3S")
    assert caught.value.code == "invalid_combination"


def test_a_joker_at_either_end_needs_its_card_named() -> None:
    state = game(["4S 5S JK 9C", "9S", "8H", "TS"])
    with pytest.raises(IllegalMove) as caught:
        play(state, 0, "4S 5S JK")  # 3S-4S-5S or 4S-5S-6S
    assert caught.value.code == "choice_required"
    state, _ = play(state, 0, "4S 5S JK", "6S")
    assert state.table is not None and state.table.rank == 1 and state.table.size == 3


def test_a_joker_that_can_only_extend_one_way_needs_no_name() -> None:
    state = game(["3S 4S JK 9C", "9S", "8H", "TS"])
    state, events = apply(state, Move.play(0, "3S 4S JK"))
    assert events[0].to_dict()["as"] == ["5S"]


def test_stairs_of_the_same_length_must_be_stronger() -> None:
    state = game(["3S 4S JK 9C", "9S", "3D 4D 5D 4H 5H 6H", "TS"])
    state, _ = play(state, 0, "3S 4S JK", "5S")  # draws 4 and skips seat 1
    assert state.turn == 2
    with pytest.raises(IllegalMove) as caught:
        play(state, 2, "3D 4D 5D")
    assert caught.value.code == "not_stronger"
    with pytest.raises(IllegalMove) as caught:
        play(state, 2, "4H 5H")
    assert caught.value.code in ("wrong_kind", "invalid_combination", "wrong_count")
    state, kinds = play(state, 2, "4H 5H 6H")
    assert kinds[0] == "played"
