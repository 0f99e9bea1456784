"""`joker_single_only`, `heart_three_return`, `joker_return_out_of_turn` in isolation
(REFERENCE §2.1 rule 10, B2, GK-T02/T03; JDF rule 12 for the ♠3 default)."""

from __future__ import annotations

from games.engine import Move
from games.engine.rules import JDF

from .helpers import Table

BASE = JDF.with_overrides(blind_cards=0)


def test_joker_single_only_rejects_every_combination_with_the_joker():
    t = Table(
        ["9S JK 7D 8D 4C", "5C", "6C", "2C"],
        rules=BASE.with_overrides(joker_single_only=True),
        leader=0,
    )
    t.reject_play(0, "9S JK", "joker_single_only")
    t.reject_play(0, "7D 8D JK", "joker_single_only", as_="9D")
    assert t.play(0, "JK") == ["played"]


def test_without_joker_single_only_the_joker_is_wild():
    t = Table(["9S JK 4C", "5C", "6C", "2C"], rules=BASE, leader=0)
    assert t.play(0, "9S JK") == ["played"]


# 4S → 5H (different suits: no JDF lock), P3 passes, 6D, then P1's JK.
HANDS = ["4S JK 7C", "5H 9D", "3H 4D 9C", "6D 3S"]


def to_joker(rules) -> Table:
    t = Table(HANDS, rules=rules, leader=0)
    t.play(0, "4S")
    t.play(1, "5H")
    t.pass_(2)
    t.play(3, "6D")
    t.play(0, "JK")
    return t


def test_heart_three_in_turn_only_without_out_of_turn_answers():
    rules = BASE.with_overrides(heart_three_return=True, spade_three_return=False)
    t = to_joker(rules)
    t.reject(Move.play(2, "3H", respond=True), "response_invalid")
    t.reject_play(2, "3H", "already_passed")  # P3 passed: no answer after passing
    t.pass_(1)
    t.reject_play(3, "3S", "not_stronger")  # ♠3 return is off


def test_heart_three_in_turn_returns_the_joker():
    rules = BASE.with_overrides(heart_three_return=True, spade_three_return=False)
    t = Table(["4S JK 7C", "3H 9D", "8C 4D", "6D 3S"], rules=rules, leader=0)
    t.play(0, "JK")
    assert t.play(1, "3H") == ["played", "heart_three_return", "trick_cleared"]
    assert t.turn == 1


def test_heart_three_answer_after_passing_with_out_of_turn_answers():
    rules = BASE.with_overrides(
        heart_three_return=True, joker_return_out_of_turn=True, spade_three_return=False
    )
    t = to_joker(rules)
    assert t.view["respond"] == [2, 3]
    kinds = t._do(Move.play(2, "3H", respond=True))
    assert kinds == ["played", "heart_three_return", "trick_cleared"]
    assert t.turn == 2
