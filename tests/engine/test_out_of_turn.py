"""Out-of-turn actions (REFERENCE §2.2 B2, §8 item 11): the ♥3 answer, イッツー, records."""

from __future__ import annotations

import json

from games.engine import Move, apply, legal_moves
from games.engine.daifugo import move_to_json
from games.engine.record import export_record, load_record, replay
from games.engine.rules import GEKIJO, JDF

from .helpers import Table


def test_the_answer_is_listed_for_other_seats():
    t = Table(["4S JK", "5S 9D", "3H 5D", "6D 8D"], rules=GEKIJO)
    t.play(0, "4S")
    t.pass_(1)
    t.play(2, "5D")
    t.pass_(3)
    t.play(0, "JK")
    assert t.turn == 2  # seat 2 is in turn: its ♥3 is ordinary, not an answer
    assert t.view["respond"] == [1, 3]
    assert Move(2, 2) in set(legal_moves(t.state))


def test_window_closes_after_another_action():
    t = Table(["4S JK 7C", "5S 9D", "3H 4D 9C", "6D 8D"], rules=GEKIJO)
    t.play(0, "4S")
    t.play(1, "5S")
    t.pass_(2)
    t.play(3, "6D")
    t.play(0, "JK")
    t.pass_(1)
    assert t.view["respond"] == []
    t.reject(Move.play(2, "3H", respond=True), "response_invalid")
    t.reject_play(2, "3H", "already_passed")


def test_answer_after_the_trick_flowed_takes_the_lead():
    t = Table(["4S JK 7C 8C", "5S", "3H 4D 9C", "6D 8D"], rules=GEKIJO)
    t.play(0, "4S")
    assert t.play(1, "5S") == ["played", "finished"]
    t.pass_(2)
    t.pass_(3)
    # Everyone still in has passed: the trick flows at once, but the window stays open.
    assert t.play(0, "JK") == ["played", "trick_cleared"]
    assert t.view["respond"] == [2, 3]
    kinds = t._do(Move.play(2, "3H", respond=True))
    assert kinds == ["played", "heart_three_return", "trick_cleared"]
    assert t.turn == 2


def test_bad_responses():
    t = Table(["4S JK", "5S 3H", "9C 4D", "6D 8D"], rules=GEKIJO)
    t.play(0, "JK")
    t.reject(Move.play(1, "3H", respond=True), "response_invalid")  # in turn: ordinary
    t.reject(Move.play(2, "9C", respond=True), "response_invalid")  # not a return card
    t.reject(Move.play(3, "3H", respond=True), "card_not_in_hand")
    assert t.play(1, "3H") == ["played", "heart_three_return", "trick_cleared"]
    t2 = Table(["4S 5S", "3S 7D", "8D", "9D"])
    t2.reject(Move.play(1, "3S", respond=True), "response_invalid")  # JDF has none


def test_respond_key_round_trips_in_records():
    t = Table(["4S JK 6S", "5S 9D", "3H 4D 7D", "6D 8D"], rules=GEKIJO)
    start = t.state
    moves = [
        Move.play(0, "4S"),
        Move.play(1, "5S"),
        Move.pass_turn(2),
        Move.play(3, "6D"),
        Move.play(0, "JK"),
        Move.play(2, "3H", respond=True),
    ]
    assert move_to_json(moves[-1]) == {"seat": 2, "play": ["3H"], "respond": True}
    record = json.loads(json.dumps(export_record(start, moves)))
    result = replay(load_record(record))
    assert all(v.ok for v in result.moves)
    state = start
    for m in moves:
        state, _ = apply(state, m)
    assert result.state == state


def test_instant_win_out_of_turn_needs_respond():
    straight = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"
    t = Table(["3D 4D", straight, "5D", "6D"], rules=GEKIJO, leader=None)
    hand = t.state.hands[1]
    t.reject(Move.play(1, hand, declare="instant_win"), "not_your_turn")
    t.reject(Move.play(1, hand & ~1, declare="instant_win", respond=True), "instant_win_invalid")
    assert t._do(Move.play(1, hand, declare="instant_win", respond=True)) == [
        "instant_win",
        "finished",
    ]
    assert t.turn == 0
    t.play(0, "3D")
    t.reject(Move.play(3, "6D", declare="instant_win", respond=True), "instant_win_invalid")


def test_instant_win_is_only_offered_before_the_first_play():
    straight = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"
    t = Table(["3D 4D", straight, "5D", "6D"], rules=GEKIJO, leader=None)
    assert any(m.declare == "instant_win" for m in legal_moves(t.state))
    t.play(0, "3D")
    assert not any(m.declare == "instant_win" for m in legal_moves(t.state))
    t2 = Table(["3D 4D", straight, "5D", "6D"], rules=JDF.with_overrides(first_lead_cards="3D"))
    assert not any(m.declare == "instant_win" for m in legal_moves(t2.state))
