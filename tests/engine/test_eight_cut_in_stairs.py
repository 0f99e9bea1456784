"""`eight_cut_in_stairs` and `eight_cut_joker_in_stairs` (REFERENCE §3.1 r10, r14, §4.1 r10, §8).

`eight_cut_joker_in_stairs` only matters when `eight_cut_in_stairs` is on: it says whether a
joker *standing for* 8 inside stairs cuts too.
"""

from __future__ import annotations

import pytest

from games.engine.rules import JDF

from .helpers import Table

CUT = ["played", "eight_cut", "trick_cleared"]


def table(rules):
    return Table(["7D 9D JK KC", "7S 8S 9S 4C", "5C", "6C"], rules=rules, leader=0)


@pytest.mark.parametrize("joker", [True, False])
def test_a_real_eight_in_stairs_cuts_either_way(joker):
    rules = JDF.with_overrides(eight_cut_in_stairs=True, eight_cut_joker_in_stairs=joker)
    t = Table(["7S 8S 9S 4C", "5C", "6C", "9C"], rules=rules, leader=0)
    assert t.play(0, "7S 8S 9S") == CUT


def test_joker_standing_for_eight_cuts_when_on():
    rules = JDF.with_overrides(eight_cut_in_stairs=True, eight_cut_joker_in_stairs=True)
    t = table(rules)
    assert t.play(0, "7D 9D JK", as_="8D") == CUT
    assert t.turn == 0


def test_joker_standing_for_eight_does_not_cut_when_off():
    rules = JDF.with_overrides(eight_cut_in_stairs=True, eight_cut_joker_in_stairs=False)
    t = table(rules)
    assert t.play(0, "7D 9D JK", as_="8D") == ["played"]
    assert t.turn == 1


@pytest.mark.parametrize("joker", [True, False])
def test_without_eight_cut_in_stairs_nothing_in_stairs_cuts(joker):
    rules = JDF.with_overrides(eight_cut_in_stairs=False, eight_cut_joker_in_stairs=joker)
    t = table(rules)
    assert t.play(0, "7D 9D JK", as_="8D") == ["played"]
    t2 = Table(["7S 8S 9S 4C", "5C", "6C", "9C"], rules=rules, leader=0)
    assert t2.play(0, "7S 8S 9S") == ["played"]
