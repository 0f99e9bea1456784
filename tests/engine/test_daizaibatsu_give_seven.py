"""Rule 7: n sevens give n chosen cards to the next player; nothing when the 7s are the last
cards; a give that empties the hand is going out (DZ-T04)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.daizaibatsu_combos import parse
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def test_the_seven_asks_its_player_for_a_card_to_the_next() -> None:
    state = game(["3D", "7C KS", "4H 5H", "6D"], leader=1)
    state, kinds = play(state, 1, "7C")
    assert kinds == ["played"]
    assert pending(state) == (Decision(1, "give", 1, 2),)


def test_giving_the_last_card_goes_out() -> None:
    state = game(["3D", "7C KS", "4H 5H", "6D"], leader=1)
    state, _ = play(state, 1, "7C")
    state, kinds = decide(state, Move.cards_for(1, "give", "KS"))
    assert kinds == ["gave", "finished"]
    assert hand(state, 2) == ["4H", "5H", "KS"]
    assert state.out == (1,)


def test_sevens_as_the_last_cards_have_no_effect() -> None:
    state = game(["3D", "7C", "4H 5H", "6D"], leader=1)
    state, kinds = play(state, 1, "7C")
    assert kinds == ["played", "finished"]
    assert hand(state, 2) == ["4H", "5H"]


def test_only_the_owed_number_of_cards_may_be_given() -> None:
    state = game(["3D", "7C 7S KS QS AS", "4H 5H", "6D"], leader=1)
    state, _ = play(state, 1, "7C 7S")
    with pytest.raises(IllegalMove) as caught:
        decide(state, Move.cards_for(1, "give", "KS"))
    assert caught.value.code == "wrong_count"
    with pytest.raises(IllegalMove) as caught:
        decide(state, Move.cards_for(1, "give", "KS 2S"))
    assert caught.value.code == "card_not_in_hand"
    state, _ = decide(state, Move(1, "give", parse("KS QS")))
    assert hand(state, 1) == ["AS"]


def test_no_play_while_the_give_is_owed() -> None:
    state = game(["3D", "7C KS", "4H 5H", "6D"], leader=1)
    state, _ = play(state, 1, "7C")
    with pytest.raises(IllegalMove) as caught:
        play(state, 2, "4H")
    assert caught.value.code == "decision_pending"
