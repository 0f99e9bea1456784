"""`reset_passes_on_reverse` (REFERENCE §2.1 rule 12(b), B4): a revolution turning the order
to reversed resets the passes, like an 11-back call of 下; a restoration does not."""

from __future__ import annotations

from games.engine.rules import JDF

from .helpers import Table

BASE = JDF.with_overrides(suit_lock=False)  # four-card sets would lock all suits in JDF
HANDS = ["6S 6H 6D 6C 7S 7H 7D 7C KC", "3S 3H 3D 3C 9D", "5S 5H 5D 5C TD", "9C JC"]


def start(rules):
    t = Table(HANDS, rules=rules, leader=0)
    t.play(0, "6S 6H 6D 6C")  # reversed
    t.pass_(1)
    assert t.play(2, "5S 5H 5D 5C") == ["played", "revolution"]  # restoration: no reset (B4)
    assert t.view["passed"] == [1]
    t.pass_(3)
    return t


def test_revolution_to_reversed_resets_passes():
    t = start(BASE.with_overrides(reset_passes_on_reverse=True))
    assert t.play(0, "7S 7H 7D 7C") == ["played", "revolution", "passes_reset"]
    assert t.view["passed"] == []
    assert t.play(1, "3S 3H 3D 3C") == ["played", "revolution"]


def test_without_the_switch_passes_stay():
    t = start(BASE)
    assert t.play(0, "7S 7H 7D 7C") == ["played", "revolution"]
    assert t.view["passed"] == [1, 3]
    t.reject_play(1, "3S 3H 3D 3C", "already_passed")
