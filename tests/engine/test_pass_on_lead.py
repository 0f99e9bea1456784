"""`pass_on_lead` (REFERENCE §4.1 rule 12, UE-T08, D3; JDF rule 7 for the default)."""

from __future__ import annotations

from games.engine import Move
from games.engine.rules import JDF

from .helpers import Table

HANDS = ["9C 4C", "5H", "6D", "7S"]
BASE = JDF.with_overrides(blind_cards=0)


def test_default_the_leader_may_not_pass():
    t = Table(HANDS, rules=BASE, leader=0)
    t.reject(Move.pass_turn(0), "must_lead")


def test_pass_on_lead_sleeps_until_the_trick_flows():
    t = Table(HANDS, rules=BASE.with_overrides(pass_on_lead=True), leader=0)
    assert t.pass_(0) == ["passed"]
    assert t.turn == 1 and t.view["table"] is None
    assert t.play(1, "5H") == ["played", "finished"]
    t.reject_play(0, "9C", "already_passed")  # asleep until the trick flows


def test_everyone_passing_on_the_empty_table_resets():
    t = Table(HANDS, rules=BASE.with_overrides(pass_on_lead=True), leader=0)
    for seat in (0, 1, 2):
        assert t.pass_(seat) == ["passed"]
    assert t.pass_(3) == ["passed", "trick_cleared"]
    assert t.view["passed"] == [] and t.turn == 0


def test_the_opening_lead_may_not_be_passed():
    rules = BASE.with_overrides(pass_on_lead=True)
    t = Table(["3S 9C", "5H", "6D", "7S"], rules=rules, leader=None)
    assert t.turn == 0
    t.reject(Move.pass_turn(0), "must_lead")
