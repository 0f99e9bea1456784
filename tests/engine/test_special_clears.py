"""8-cut (8切り, §11; A11) and the ♠3 return (スペ3返し, §12)."""

from __future__ import annotations

from games.engine import JDF

from .helpers import Table


def test_jdf_t02_joker_on_a_two_then_spade3_clears():
    t = Table(["2S 4C", "JK 5C", "3S 6C", "7D 8D"], leader=0)
    t.play(0, "2S")
    assert t.play(1, "JK") == ["played"]
    assert t.play(2, "3S") == ["played", "spade_three_return", "trick_cleared"]
    assert t.turn == 2
    assert t.state.passed == 0 and t.state.table is None


def test_jdf_t02_pass_flags_cleared_after_return():
    t = Table(["JK 4C", "5C 6C", "3S 7C", "7D 8D"], leader=0)
    t.play(0, "JK")
    t.pass_(1)
    t.play(2, "3S")
    assert t.state.passed == 0


def test_jdf_t03_spade3_only_answers_a_single_joker():
    t = Table(["KS JK 4C", "5C 6C", "3S 3D 3H 7C", "8D 9D"], leader=0)
    t.play(0, "KS JK")
    t.pass_(1)
    t.reject_play(2, "3S 3D", "not_stronger")  # case 1: a pair of 3s is weaker than Ks
    t2 = Table(["JK 4C", "5C 6C", "3H 3S 7C", "8D 9D"], leader=0)
    t2.play(0, "JK")
    t2.pass_(1)
    t2.reject_play(2, "3H", "not_stronger")  # case 2: only 3S beats a lone joker


def test_spade_three_return_switch_off():
    t = Table(
        ["JK 4C", "3S 6C", "7C", "8D 9D"],
        leader=0,
        rules=JDF.with_overrides(spade_three_return=False),
    )
    t.play(0, "JK")
    t.reject_play(1, "3S", "not_stronger")


def test_jdf_t05_an_eight_inside_stairs_does_not_cut():
    t = Table(["7S 8S 9S 4C", "5C 6C", "7D 8D", "9H TH"], leader=0)
    assert t.play(0, "7S 8S 9S") == ["played"]
    assert t.turn == 1


def test_jdf_t05_variant_a_pair_of_eights_cuts():
    t = Table(["8H 8D 4C", "5C 6C", "7D 9D", "9H TH"], leader=0)
    assert t.play(0, "8H 8D") == ["played", "eight_cut", "trick_cleared"]
    assert t.turn == 0


def test_jdf_t06_a_joker_in_an_eight_set_cuts():
    t = Table(["8C JK 4C", "5C 6C", "7D 9D", "9H TH"], leader=0)
    assert t.play(0, "8C JK") == ["played", "eight_cut", "trick_cleared"]
    assert t.turn == 0


def test_eight_cut_when_following():
    t = Table(["5C 4C", "8S 6C", "7D 9D", "9H TH"], leader=0)
    t.play(0, "5C")
    assert t.play(1, "8S") == ["played", "eight_cut", "trick_cleared"]
    assert t.turn == 1


def test_eight_cut_switch_off():
    t = Table(
        ["8H 8D 4C", "5C 6C", "7D 9D", "9H TH"], leader=0, rules=JDF.with_overrides(eight_cut=False)
    )
    assert t.play(0, "8H 8D") == ["played"]
    assert t.turn == 1


def test_eight_cut_in_stairs_switch():
    rules = JDF.with_overrides(eight_cut_in_stairs=True)
    t = Table(["7S 8S 9S 4C", "5C 6C", "7D 8D", "9H TH"], leader=0, rules=rules)
    assert t.play(0, "7S 8S 9S") == ["played", "eight_cut", "trick_cleared"]
    t2 = Table(["7S 9S JK 4C", "5C 6C", "7D 8D", "9H TH"], leader=0, rules=rules)
    assert t2.play(0, "7S 9S JK")[-1] == "trick_cleared"  # the joker stands for 8S
    t3 = Table(["3S 4S 5S 4C", "5C 6C", "7D 8D", "9H TH"], leader=0, rules=rules)
    assert t3.play(0, "3S 4S 5S") == ["played"]
