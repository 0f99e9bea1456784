"""Guandan rules 12–14: tribute (进贡), the card given back (还贡) and anti-tribute (抗贡) at the
start of every hand after the first, as pending decisions (GD-T12, GD-T13; E3, E4)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.family import Decision
from games.engine.guandan import (
    GUANDAN,
    GUANDAN_CN,
    GUANDAN_PAGAT,
    PHASE_PLAY,
    PHASE_TRIBUTE,
    GuandanRules,
    Match,
    Move,
    State,
    apply,
    new_game,
)
from games.engine.multideck import parse_multi

from .guandan_helpers import kinds


def hand_after(
    previous: tuple[int, ...], hands: list[str], rules: GuandanRules = GUANDAN_CN
) -> State:
    # Levels as they stand after the previous hand; team 0 declares at 4.
    return new_game(rules, hands, match=Match((4, 2), previous=previous))


def act(state: State, move: Move) -> tuple[State, list[str]]:
    state, events = apply(state, move)
    return state, kinds(events)


def test_single_tribute_last_place_pays_first_place_who_returns_a_low_card() -> None:
    # GD-T12: P1 1st, P2 2nd, P3 3rd, P4 4th: P4 pays its highest card to P1, P1 returns a card
    # of 10 or lower, and P4 leads.
    state = hand_after((0, 1, 2, 3), ["KS 5S 3C", "6D 7D", "8D 9D", "BJ 9C 3D"])
    assert state.phase == PHASE_TRIBUTE
    assert GUANDAN.pending(state) == (Decision(3, "tribute", 1, 0),)
    with pytest.raises(IllegalMove) as error:
        act(state, Move.tribute(3, "9C"))
    assert error.value.code == "tribute_invalid"
    state, events = act(state, Move.tribute(3, "BJ"))
    assert events == ["tribute_paid", "tribute_received"]
    assert GUANDAN.pending(state) == (Decision(0, "return", 1, 3),)
    with pytest.raises(IllegalMove) as error:
        act(state, Move.give_back(0, "KS"))
    assert error.value.code == "tribute_invalid"
    state, events = act(state, Move.give_back(0, "5S"))
    assert events == ["tribute_returned", "tribute_done"]
    assert state.phase == PHASE_PLAY and state.turn == 3
    assert state.hands[0] == parse_multi("KS 3C BJ") and state.hands[3] == parse_multi("5S 9C 3D")


def test_a_wild_is_never_paid() -> None:
    # Level 4: the 4♥ is wild, so the highest card the payer may give is its A.
    state = hand_after((0, 1, 2, 3), ["KS 5S", "6D 7D", "8D 9D", "4H AS 3D"])
    with pytest.raises(IllegalMove):
        act(state, Move.tribute(3, "4H"))
    state, _ = act(state, Move.tribute(3, "AS"))


def test_a_natural_level_card_is_paid_before_an_ace() -> None:
    state = hand_after((0, 1, 2, 3), ["KS 5S", "6D 7D", "8D 9D", "4S AS 3D"])
    assert [m.cards for m in GUANDAN.legal_moves(state)] == [parse_multi("4S")]


def test_tribute_is_paid_even_to_the_partner() -> None:
    # Rule 12: after 1-4 last place is first place's partner, and still pays.
    state = hand_after((0, 1, 3, 2), ["KS 5S", "6D 7D", "QD 9D", "8C 3D"])
    assert GUANDAN.pending(state) == (Decision(2, "tribute", 1, 0),)


def test_anti_tribute_when_the_payers_hold_both_big_jokers() -> None:
    # GD-T13: P1 and P3 finished 1-2; P2 and P4 hold one 大王 each: no tribute, P1 leads.
    state = hand_after((0, 2, 1, 3), ["KS 5S", "BJ 7D", "8D 9D", "BJ 3D"])
    assert state.phase == PHASE_PLAY and state.turn == 0
    assert GUANDAN.pending(state) == ()
    assert GUANDAN.observe(state)["anti_tribute"] is True


def test_anti_tribute_when_a_single_payer_holds_both_big_jokers() -> None:
    state = hand_after((0, 1, 2, 3), ["KS 5S", "6D 7D", "8D 9D", "BJ BJ 3D"])
    assert state.phase == PHASE_PLAY and state.turn == 0


def test_double_tribute_first_place_takes_the_higher_card() -> None:
    state = hand_after((0, 2, 1, 3), ["KS 5S", "BJ 7D", "8D 9D", "AS 3D"])
    assert {d.seat for d in GUANDAN.pending(state)} == {1, 3}
    state, events = act(state, Move.tribute(3, "AS"))
    assert events == ["tribute_paid"]
    state, events = act(state, Move.tribute(1, "BJ"))
    assert events == ["tribute_paid", "tribute_received", "tribute_received"]
    assert set(GUANDAN.pending(state)) == {Decision(0, "return", 1, 1), Decision(2, "return", 1, 3)}
    state, _ = act(state, Move.give_back(2, "8D"))
    state, events = act(state, Move.give_back(0, "5S"))
    assert events == ["tribute_returned", "tribute_done"]
    assert state.turn == 1  # the payer whose card went to first place leads (rule 14)


def test_equal_tributes_competition_rules_go_by_seat_order_from_first_place() -> None:
    # E4: seat 1 comes first after seat 0 in the direction of play.
    state = hand_after((0, 2, 1, 3), ["KS 5S", "AD 7D", "8D 9D", "AS 3D"])
    state, _ = act(state, Move.tribute(1, "AD"))
    state, _ = act(state, Move.tribute(3, "AS"))
    assert state.gets == (-1, 0, -1, 2)
    assert state.leader == 1


def test_equal_tributes_pagat_first_place_chooses() -> None:
    state = hand_after((0, 2, 1, 3), ["KS 5S", "AD 7D", "8D 9D", "AS 3D"], GUANDAN_PAGAT)
    state, _ = act(state, Move.tribute(1, "AD"))
    state, events = act(state, Move.tribute(3, "AS"))
    assert events == ["tribute_paid"]
    assert GUANDAN.pending(state) == (Decision(0, "take"),)
    state, events = act(state, Move.take(0, 3))
    assert events == ["tribute_received", "tribute_received"]
    assert state.gets == (-1, 2, -1, 0) and state.leader == 3


def test_the_return_is_never_the_card_just_received() -> None:
    state = hand_after((0, 1, 2, 3), ["KS 5S", "6D 7D", "8D 9D", "QD 3D"], GUANDAN_PAGAT)
    state, _ = act(state, Move.tribute(3, "QD"))
    with pytest.raises(IllegalMove):
        act(state, Move.give_back(0, "QD"))
    state, _ = act(state, Move.give_back(0, "KS"))  # pagat: any other card


def test_competition_rules_return_the_lowest_card_when_none_is_ten_or_lower() -> None:
    # E3: nothing of 10 or lower, so the lowest card (the J).
    state = hand_after((0, 1, 2, 3), ["JS QS", "6D 7D", "8D 9D", "KD 3D"])
    state, _ = act(state, Move.tribute(3, "KD"))
    with pytest.raises(IllegalMove):
        act(state, Move.give_back(0, "QS"))
    state, _ = act(state, Move.give_back(0, "JS"))


def test_no_play_before_the_tribute_is_settled() -> None:
    state = hand_after((0, 1, 2, 3), ["KS 5S", "6D 7D", "8D 9D", "BJ 3D"])
    with pytest.raises(IllegalMove) as error:
        act(state, Move.play(3, "3D"))
    assert error.value.code == "tribute_invalid"
    assert GUANDAN.to_move(state) == (3,)


def test_the_first_hand_of_a_match_has_no_tribute() -> None:
    state = new_game(GUANDAN_CN, ["KS", "6D", "8D", "3D"], leader=2)
    assert state.phase == PHASE_PLAY and state.turn == 2
