"""Rule 13: n kings destroy n cards of the next player, named by the K player (chosen from an
open hand, picked blind otherwise); a destroyed 4 makes the victim draw 4, a destroyed 6 opens
the victim's hand."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def test_the_king_player_names_a_card_of_the_next_player() -> None:
    state = game(["KS 3C", "5D 6D", "7H", "9S"])
    state, _ = play(state, 0, "KS")
    assert pending(state) == (Decision(0, "destroy", 1, 1),)
    with pytest.raises(IllegalMove) as caught:
        decide(state, Move.cards_for(0, "destroy", "7H"))
    assert caught.value.code == "card_not_in_hand"
    state, kinds = decide(state, Move.cards_for(0, "destroy", "5D"))
    assert kinds == ["destroyed"]
    assert hand(state, 1) == ["6D"] and len(state.destroyed) == 1


def test_a_destroyed_four_makes_its_owner_draw_four() -> None:
    state = game(["KS 3C", "4D 6D", "7H", "9S"])
    state, _ = play(state, 0, "KS")
    state, kinds = decide(state, Move.cards_for(0, "destroy", "4D"))
    assert kinds == ["destroyed", "drew"]
    assert state.counts[1] == 1 + 4


def test_a_destroyed_six_opens_its_owners_hand() -> None:
    state = game(["KS 3C", "4D 6D", "7H", "9S"])
    state, _ = play(state, 0, "KS")
    state, kinds = decide(state, Move.cards_for(0, "destroy", "6D"))
    assert kinds == ["destroyed", "hand_opened"]
    assert state.opened == 1 << 1
