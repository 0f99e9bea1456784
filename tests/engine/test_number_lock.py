"""`number_lock_after` (REFERENCE §3.1 rule 15, C3–C5): how many rank steps start the lock."""

from __future__ import annotations

from games.engine.rules import JDF, LOCAL

from .helpers import Table

# Suits differ on every play so the suit lock never interferes.
HANDS = ["3D 9C", "4H TC", "5S 6S JC", "6C 7C QC"]


def test_after_one_step_two_plays_lock():
    t = Table(HANDS, rules=LOCAL.with_overrides(number_lock_after=1), leader=None)
    assert t.play(0, "3D") == ["played"]
    assert t.play(1, "4H") == ["played", "number_lock_started"]
    assert t.view["number_lock"] is not None
    t.reject_play(2, "6S", "number_locked")
    assert t.play(2, "5S") == ["played"]


def test_after_two_steps_three_plays_lock():
    t = Table(HANDS, rules=LOCAL, leader=None)
    assert LOCAL.number_lock_after == 2
    t.play(0, "3D")
    assert t.play(1, "4H") == ["played"]  # one step only: no lock yet
    assert t.play(2, "5S") == ["played", "number_lock_started"]
    t.reject_play(3, "7C", "number_locked")
    assert t.play(3, "6C") == ["played"]


def test_after_two_steps_a_gap_is_free():
    t = Table(HANDS, rules=LOCAL, leader=None)
    t.play(0, "3D")
    t.play(1, "4H")
    assert t.play(2, "6S") == ["played"]  # 4 → 6 is not a step: no lock
    assert t.play(3, "7C") == ["played"]


def test_number_lock_off_in_jdf_even_with_steps():
    rules = JDF.with_overrides(first_lead_cards=["3D"], blind_cards=0)
    t = Table(HANDS, rules=rules, leader=None)
    t.play(0, "3D")
    t.play(1, "4H")
    t.play(2, "5S")
    assert t.play(3, "7C") == ["played"]
