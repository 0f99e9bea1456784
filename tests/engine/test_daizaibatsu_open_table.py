"""Open table: hands the referee cannot see are ``null`` with their counts and the pile is
unknown; possession is checked only for known hands, draws change counts, and a known hand
that draws owes a ``draw`` decision naming the cards."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, apply, observe, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def open_table():  # type: ignore[no-untyped-def]
    return game(["4S 3C 9D", None, None, None], pile=None, counts=[3, 5, 5, 5])


def test_the_pile_size_is_what_the_hands_leave() -> None:
    assert open_table().pile_count == 108 - 18


def test_an_unknown_hand_plays_any_cards_and_its_count_falls() -> None:
    state, _ = play(open_table(), 0, "3C")
    state, _ = play(state, 1, "KS")
    assert state.counts[1] == 4


def test_a_known_hand_that_draws_names_the_cards() -> None:
    state, kinds = play(open_table(), 0, "4S")
    assert kinds == ["played", "drew"]
    assert pending(state) == (Decision(0, "draw", 4, None),)
    state, _ = decide(state, Move.cards_for(0, "drew", "5S 5H 6D JK"))
    assert hand(state, 0) == ["3C", "5S", "5H", "6D", "9D", "JK"]
    assert state.counts[0] == 6 and state.pile_count == 108 - 18 - 4


def test_the_drawn_cards_must_be_as_many_as_drawn() -> None:
    state, _ = play(open_table(), 0, "4S")
    with pytest.raises(IllegalMove) as caught:
        decide(state, Move.cards_for(0, "drew", "5S"))
    assert caught.value.code == "wrong_count"


def test_an_unknown_hand_draws_by_count_only() -> None:
    state, _ = play(open_table(), 0, "3C")
    state, _ = apply(state, Move.play(1, "4H"))
    assert state.counts[1] == 5 - 1 + 4 and pending(state) == ()
    assert observe(state, 1)["hand"] is None
