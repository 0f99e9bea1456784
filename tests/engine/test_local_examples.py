"""REFERENCE §3.3 worked examples (local preset); seats 0..3 are P1..P4."""

from __future__ import annotations

from games.engine import parse_cards
from games.engine.rules import LOCAL

from .helpers import Table


def lc(hands, **kw):
    kw.setdefault("rules", LOCAL)
    return Table(hands, **kw)


def test_local_t01_joker_at_the_open_end_of_stairs():
    t = lc(["4D 5D JK 3C", "5S 6S 7S 9C", "4C", "6C"])
    t.play(0, "4D 5D JK")
    assert t.events[0].as_cards == parse_cards("6D")
    assert t.play(1, "5S 6S 7S") == ["played"]  # overlap allowed


def test_local_t02_joker_standing_for_eight_does_not_cut():
    t = lc(["7D 9D JK 3C", "4C", "5C", "6C"])
    assert t.play(0, "7D 9D JK") == ["played"]
    assert t.turn == 1


def test_local_t03_one_card_two_jokers_is_a_triple():
    t = lc(["5D JK JK 3C", "4S 5S 6S 9S 9H 9C", "4C", "6C"])
    t.play(0, "5D JK JK")
    assert t.view["table"]["combination"] == "set"
    t.reject_play(1, "4S 5S 6S", "wrong_kind")
    assert t.play(1, "9S 9H 9C") == ["played"]


def test_local_t04_eight_inside_stairs_cuts():
    t = lc(["7S 8S 9S 3C", "4C", "5C", "6C"])
    assert t.play(0, "7S 8S 9S") == ["played", "eight_cut", "trick_cleared"]
    assert t.turn == 0


def test_local_t05_stairs_revolution():
    t = lc(["4H 5H 6H 7H 3C", "4C", "5C", "6C"])
    assert t.play(0, "4H 5H 6H 7H") == ["played", "revolution"]
    assert t.view["revolution"] is True


def _number_locked():
    t = lc(["3D 9D", "4H TD", "5S JD", "7C 6C JK"])
    t.play(0, "3D")
    t.play(1, "4H")
    assert t.play(2, "5S") == ["played", "number_lock_started"]
    return t


def test_local_t06_number_lock():
    t = _number_locked()
    assert t.view["number_lock"] is True
    t.reject_play(3, "7C", "number_locked")
    assert t.play(3, "6C") == ["played"]
    t = _number_locked()
    assert t.play(3, "JK") == ["played"]


def test_local_t07_suit_lock_after_three():
    t = lc(["3D 9D", "6D TD", "7D JD", "9S 8D QC"])
    t.play(0, "3D")
    assert t.play(1, "6D") == ["played"]
    assert t.play(2, "7D") == ["played", "lock_started"]
    t.reject_play(3, "9S", "suit_locked")
    kinds = t.play(3, "8D")  # 6D 7D 8D also start a number lock, cleared at once
    assert kinds[0] == "played" and kinds[-2:] == ["eight_cut", "trick_cleared"]


def test_local_t08_joker_resets_the_count():
    t = lc(["4D 4S 3C", "7D 7S 3H", "9D JK 5C", "TH TC 6C"])
    t.play(0, "4D 4S")
    t.play(1, "7D 7S")
    assert t.play(2, "9D JK") == ["played"]
    assert t.view["lock"] == [] and t.state.lock_run == 0
    assert t.play(3, "TH TC") == ["played"]


def test_local_t09_joker_in_a_locked_pair():
    t = lc(["4D 4S 3C", "7D 7S 3H", "9D 9S 5C", "TD TH JK 6C"])
    t.play(0, "4D 4S")
    t.play(1, "7D 7S")
    assert t.play(2, "9D 9S") == ["played", "lock_started"]
    t.reject_play(3, "TH JK", "suit_locked")
    assert t.play(3, "TD JK") == ["played"]
    assert t.view["lock"] == ["S", "D"]


def _strict():
    t = lc(["4D 4S 3C", "5D 5S 3H", "6D 6S 5C", "7D 7S 7H 7C 9D 9S JK"])
    t.play(0, "4D 4S")
    t.play(1, "5D 5S")
    assert t.play(2, "6D 6S") == ["played", "lock_started", "number_lock_started"]
    return t


def test_local_t10_strict_lock():
    t = _strict()
    t.reject_play(3, "7H 7C", "suit_locked")
    t.reject_play(3, "9D 9S", "number_locked")
    assert t.play(3, "7D 7S") == ["played"]
    t = _strict()
    assert t.play(3, "7D JK") == ["played"]


def test_local_t11_foul_with_an_eight_inside_stairs():
    t = lc(["4S 5S 6S 3C", "7S 8S 9S", "4C", "6C"])
    t.play(0, "4S 5S 6S")
    assert t.play(1, "7S 8S 9S") == ["played", "foul_finish"]


def test_local_t12_order_of_several_fouls():
    t = lc(["3C 5C", "2S", "4C 6H 7H", "JK"])
    t.play(0, "3C")
    assert t.play(1, "2S") == ["played", "foul_finish"]
    t.pass_(2)
    assert t.play(3, "JK") == ["played", "foul_finish"]
    t.pass_(0)
    assert t.turn == 0
    t.play(0, "5C")
    assert [(p.seat, p.place) for p in t.state.placings()] == [(0, 1), (2, 2), (1, 3), (3, 4)]


def test_local_t13_miyako_ochi_then_a_foul():
    t = lc(
        ["KS KH", "6D JK", "3D 4D 5D TC", "QC QD 7C 8S"],
        leader=None,
        titles=["daifugo", "fugo", "hinmin", "daihinmin"],
    )
    t.give(3, "QC QD")
    t.give(2, "TC")
    t.give(0, "KS KH")
    t.give(1, "6D")
    assert t.turn == 2  # the ♦3 holder leads
    assert t.play(2, "3D 4D 5D 6D") == ["played", "revolution", "finished", "miyako_ochi"]
    t.pass_(3)
    assert t.pass_(1) == ["passed", "trick_cleared"]
    t.play(3, "KS")
    t.play(1, "TC")
    t.play(3, "8S")
    t.play(3, "7C")
    assert t.play(1, "JK")[:2] == ["played", "foul_finish"]
    assert [(p.seat, p.place) for p in t.state.placings()] == [(2, 1), (3, 2), (0, 3), (1, 4)]


def test_local_t14_finishing_card_beaten_by_nobody():
    t = lc(["9C 3C", "KS", "4C", "6C"])
    t.play(0, "9C")
    assert t.play(1, "KS") == ["played", "finished"]
    t.pass_(2)
    t.pass_(3)
    assert t.pass_(0) == ["passed", "trick_cleared"]
    assert t.turn == 2


def test_local_t15_joker_in_a_revolution():
    t = lc(["4S 4H 4D 4C 3S 9C", "JK 6C", "5C", "7C"])
    t.play(0, "4S 4H 4D 4C")
    t.pass_(1)
    t.pass_(2)
    t.pass_(3)
    t.play(0, "3S")
    assert t.play(1, "JK") == ["played"]
