"""Suit lock (スートしばり, JDF §13; A7, A8, A12)."""

from __future__ import annotations

from games.engine import JDF

from .helpers import Table


def test_jdf_t08_suit_lock_starts_on_first_match():
    t = Table(["5H 4C", "9H 5C", "KS JK 6C", "3S 7D"], leader=0)
    t.play(0, "5H")
    assert t.play(1, "9H") == ["played", "lock_started"]
    assert t.lock == ["H"]
    t.reject_play(2, "KS", "suit_locked")
    assert t.play(2, "JK") == ["played"]  # A8: a joker may continue a lock
    assert t.lock == ["H"]
    err = t.reject_play(3, "3S", "suit_locked")  # A7 default
    assert "A7" in (err.rule or "")


def test_spade3_ignores_lock_switch_a7():
    rules = JDF.with_overrides(spade3_ignores_lock=True)
    t = Table(["5H 4C", "9H 5C", "JK 6C", "3S 7D"], leader=0, rules=rules)
    t.play(0, "5H")
    t.play(1, "9H")
    t.play(2, "JK")
    assert t.play(3, "3S") == ["played", "spade_three_return", "trick_cleared"]


def test_jdf_t09_a_joker_cannot_start_a_lock():
    t = Table(["5H 5S 4C", "9H JK 5C", "TD TC 6C", "7D 8D"], leader=0)
    t.play(0, "5H 5S")
    assert t.play(1, "9H JK", as_="9S") == ["played"]
    assert t.lock == []
    assert t.play(2, "TD TC") == ["played"]
    assert t.lock == []  # the table play had a joker: no lock either


def test_jdf_t10_pair_lock_needs_both_suits():
    t = Table(["5H 5S 4C", "9H 9S 5C", "JH JD QH JK 6C", "7D 8D"], leader=0)
    t.play(0, "5H 5S")
    assert t.play(1, "9H 9S") == ["played", "lock_started"]
    assert t.lock == ["S", "H"]
    t.reject_play(2, "JH JD", "suit_locked")  # A12: no partial lock
    assert t.play(2, "QH JK", as_="QS") == ["played"]
    assert t.lock == ["S", "H"]


def test_joker_declared_for_a_wrong_suit_breaks_the_lock_rule():
    t = Table(["5H 5S 4C", "9H 9S 5C", "QH JK 6C", "7D 8D"], leader=0)
    t.play(0, "5H 5S")
    t.play(1, "9H 9S")
    t.reject_play(2, "QH JK", "suit_locked", as_="QD")
    assert t.play(2, "QH JK") == ["played"]  # undeclared: the joker supplies ♠


def test_stairs_lock():
    t = Table(["3D 4D 5D 9C", "6D 7D 8D TC", "9D TD JD JC", "6S 7S 8S"], leader=0)
    t.play(0, "3D 4D 5D")
    assert t.play(1, "6D 7D 8D") == ["played", "lock_started"]
    t.reject_play(3, "6S 7S 8S", "not_your_turn")
    assert t.play(2, "9D TD JD") == ["played"]


def test_lock_ends_with_the_trick():
    t = Table(["5H 4C", "9H 5C", "KS 6C", "7D 8D"], leader=0)
    t.play(0, "5H")
    t.play(1, "9H")
    t.pass_(2)
    t.pass_(3)
    assert t.pass_(0) == ["passed", "trick_cleared"]
    assert t.lock == []


def test_suit_lock_switch_off():
    t = Table(
        ["5H 4C", "9H 5C", "KS 6C", "7D 8D"], leader=0, rules=JDF.with_overrides(suit_lock=False)
    )
    t.play(0, "5H")
    assert t.play(1, "9H") == ["played"]
    assert t.play(2, "KS") == ["played"]


def test_suit_lock_after_two_matches():
    rules = JDF.with_overrides(suit_lock_after=2)
    t = Table(["5H 4C", "9H 5C", "JH KS 6C", "QH AS 7D"], leader=0, rules=rules)
    t.play(0, "5H")
    assert t.play(1, "9H") == ["played"]  # one match: not yet
    assert t.play(2, "JH") == ["played", "lock_started"]
    t.reject_play(3, "AS", "suit_locked")
    t2 = Table(["5H 4C", "9H 5C", "KS 6C", "AH 7D"], leader=0, rules=rules)
    t2.play(0, "5H")
    t2.play(1, "9H")
    t2.play(2, "KS")  # run broken
    assert t2.play(3, "AH") == ["played"]
    assert t2.lock == []
