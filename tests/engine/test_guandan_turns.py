"""Guandan rules 7–8: play goes round to the right; a pass is not final; the trick ends when
all the others still in the hand pass; 接风 (GD-T07, GD-T08)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.guandan import GUANDAN, Move, apply

from .guandan_helpers import pass_, play, position


def test_a_player_who_passed_may_play_later_in_the_same_trick() -> None:
    # GD-T07: P1 5S, P2 passes, P3 9S, P4 passes, P1 passes, then P2 plays KS.
    state = position("5S 3D", "KS 3C", "9S 4C", "6C 4D")
    state, _ = play(state, 0, "5S")
    state, _ = pass_(state, 1)
    state, _ = play(state, 2, "9S")
    state, _ = pass_(state, 3)
    state, _ = pass_(state, 0)
    assert state.turn == 1
    state, events = play(state, 1, "KS")
    assert events == ["played"]


def test_the_trick_ends_when_every_other_player_passes_and_the_last_player_leads() -> None:
    state = position("5S 3D", "KS 3C", "9S 4C", "6C 4D")
    state, _ = play(state, 0, "5S")
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, events = pass_(state, 3)
    assert events == ["passed", "trick_cleared"]
    assert state.table is None and state.turn == 0


def test_jiefeng_the_partner_of_a_player_who_went_out_leads() -> None:
    # GD-T08: P1 goes out with KS KH; the others pass; P3 (P1's partner) leads.
    state = position("KS KH", "3C 4C", "5C 6C", "7C 8C")
    state, events = play(state, 0, "KS KH")
    assert events == ["played", "finished"]
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, events = pass_(state, 3)
    assert events == ["passed", "trick_cleared", "jiefeng"]
    assert state.turn == 2


def test_the_leader_cannot_pass() -> None:
    state = position("5S", "KS", "9S", "6C")
    with pytest.raises(IllegalMove) as error:
        pass_(state, 0)
    assert error.value.code == "must_lead"


def test_only_the_seat_in_turn_plays() -> None:
    state = position("5S 3D", "KS 3C", "9S 4C", "6C 4D")
    with pytest.raises(IllegalMove) as error:
        play(state, 2, "9S")
    assert error.value.code == "not_your_turn"
    assert GUANDAN.to_move(state) == (0,)


def test_play_goes_to_the_next_seat_still_in_the_hand() -> None:
    state = position("KS", "3C 4C", "5C 6C", "7C 8C")
    state, _ = play(state, 0, "KS")
    assert state.turn == 1
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    assert state.turn == 2  # 接风
    state, _ = play(state, 2, "5C")
    assert state.turn == 3


def test_cards_not_held_are_refused() -> None:
    state = position("5S", "KS", "9S", "6C")
    with pytest.raises(IllegalMove) as error:
        apply(state, Move.play(0, "KS"))
    assert error.value.code == "card_not_in_hand"


def test_a_pass_plays_no_cards_and_a_seat_must_exist() -> None:
    state = position("5S 3D", "KS 3C", "9S 4C", "6C 4D")
    state, _ = play(state, 0, "5S")
    with pytest.raises(IllegalMove) as error:
        apply(state, Move(1, "pass", state.hands[1]))
    assert error.value.code == "invalid_combination"
    with pytest.raises(IllegalMove) as error:
        apply(state, Move.pass_turn(4))
    assert error.value.code == "not_your_turn"
