"""`lock_counts_joker_suits` (REFERENCE §4.1 rule 11, D6; JDF A8/JDF-T09 for the default)."""

from __future__ import annotations

from games.engine.rules import JDF

from .helpers import Table

HANDS = ["5H 5S 4C", "7H JK 5C", "9H 9D 9S 6C", "8C TC"]


def test_joker_suit_given_by_as_starts_a_lock():
    t = Table(HANDS, rules=JDF.with_overrides(lock_counts_joker_suits=True), leader=0)
    t.play(0, "5H 5S")
    assert t.play(1, "7H JK", as_="7S") == ["played", "lock_started"]
    assert t.lock == ["S", "H"]
    t.reject_play(2, "9H 9D", "suit_locked")
    assert t.play(2, "9H 9S") == ["played"]


def test_joker_suit_that_does_not_match_starts_nothing():
    t = Table(HANDS, rules=JDF.with_overrides(lock_counts_joker_suits=True), leader=0)
    t.play(0, "5H 5S")
    assert t.play(1, "7H JK", as_="7D") == ["played"]
    assert t.lock == []


def test_default_a_joker_never_starts_a_lock():
    t = Table(HANDS, rules=JDF, leader=0)
    assert JDF.lock_counts_joker_suits is False
    t.play(0, "5H 5S")
    assert t.play(1, "7H JK", as_="7S") == ["played"]
    assert t.lock == []
    assert t.play(2, "9H 9D") == ["played"]
