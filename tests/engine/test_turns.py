"""Turn order, passing, trick flow and the first lead (JDF §7–9, §20, §22; A4)."""

from __future__ import annotations

import pytest

from games.engine import JDF, Move, RecordError, new_game

from .helpers import Table


def test_jdf_t11_a_pass_is_final_for_the_trick():
    t = Table(["TC 4D", "KC 5D", "QC 6D", "7H 8H"], leader=0)
    t.play(0, "TC")
    t.pass_(1)
    t.play(2, "QC")
    t.reject_play(1, "KC", "already_passed")
    t.pass_(3)
    assert t.pass_(0) == ["passed", "trick_cleared"]  # P2 is skipped: everyone has passed
    assert t.turn == 2
    assert t.state.passed == 0


def test_passed_player_is_skipped_in_turn_order():
    t = Table(["5D 4C", "6D 5C", "7D 6C", "9D 7C"], leader=0)
    t.play(0, "5D")
    t.pass_(1)
    t.play(2, "7D")
    t.play(3, "9D")
    assert t.turn == 0
    t.pass_(0)
    assert t.turn == 2  # seat 1 passed earlier


def test_not_your_turn_and_already_out():
    t = Table(["5D", "6D 5C", "7D 6C", "8H 7C"], leader=0)
    t.reject_play(2, "7D", "not_your_turn")
    t.play(0, "5D")
    t.reject_play(0, "5D", "not_your_turn")


def test_jdf_rule_20_finisher_nobody_beats_next_holder_leads():
    t = Table(["AD", "5C 6C", "7D 8D", "9H TH"], leader=0)
    assert t.play(0, "AD") == ["played", "finished"]
    t.pass_(1)
    t.pass_(2)
    assert t.pass_(3) == ["passed", "trick_cleared"]
    assert t.turn == 1  # next holder clockwise from the finisher


def test_first_lead_is_the_spade3_holder_who_must_play_it_a4():
    state = new_game(JDF, ["4C 5C", "6C 7C", "3S 8D 9D", "TH JH"])
    assert state.turn == 2
    t = Table(["4C 5C", "6C 7C", "3S 9D 9H", "TH JH"], leader=None)
    t.reject_play(2, "9D", "must_include_opening_card")
    t.reject_play(2, "9D 9H", "must_include_opening_card")
    t.play(2, "3S")
    t.play(3, "TH")  # later plays are free


def test_first_lead_falls_back_when_spade3_is_a_blind_card():
    t = Table(["3D 5C", "3C 7C", "3H 9D", "TH JH"], leader=None, blind="3S KD")
    assert t.turn == 1
    t.reject_play(1, "7C", "must_include_opening_card")


def test_first_lead_cards_switch():
    rules = JDF.with_overrides(first_lead_cards=["3D", "3C"])
    state = new_game(rules, ["3S 5C", "3C 7C", "3D 9D", "TH JH"])
    assert state.turn == 2
    state = new_game(rules, ["3S 5C", "3C 7C", "4D 9D", "TH JH"])
    assert state.turn == 1


def test_leader_given_without_opening_card_lifts_the_requirement():
    t = Table(["3S 5C", "6C 7C", "8D 9D", "TH JH"], leader=1)
    assert t.play(1, "7C") == ["played"]
    t2 = Table(["3S 5C", "6C 7C", "8D 9D", "TH JH"], leader=0)
    t2.reject_play(0, "5C", "must_include_opening_card")


def test_nobody_holds_a_three_puzzle_defaults_to_seat_0():
    assert new_game(JDF, ["4C", "5C", "6C", "7C"]).turn == 0


def test_opening_card_in_an_unknown_hand_needs_a_leader():
    with pytest.raises(RecordError):
        new_game(JDF, [None, "6C", "7C", "8C"], counts=[13, 1, 1, 1])
    state = new_game(JDF, [None, "6C", "7C", "8C"], counts=[13, 1, 1, 1], leader=0)
    assert state.turn == 0 and state.must_open == 0


def test_pass_with_cards_is_invalid():
    t = Table(["5D 4C", "6D 5C", "7D 6C", "8H 7C"], leader=0)
    t.play(0, "5D")
    t.reject(Move(1, 1, is_pass=True), "invalid_combination")
