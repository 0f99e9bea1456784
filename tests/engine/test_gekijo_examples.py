"""REFERENCE §2.3 worked examples (gekijo preset); seats 0..3 are P1..P4."""

from __future__ import annotations

from games.engine import Move
from games.engine.rules import GEKIJO

from .helpers import Table


def g(hands, **kw):
    kw.setdefault("rules", GEKIJO)
    return Table(hands, **kw)


def test_gekijo_t01_opening_must_include_diamond_three():
    t = g(["5S 6S", "3D 3S 5H", "7C 8C", "9C TC"], leader=None)
    assert t.turn == 1
    t.reject_play(1, "5H", "must_include_opening_card")
    assert t.play(1, "3D 3S") == ["played"]


def test_gekijo_t02_joker_is_single_only():
    t = g(["9S JK 5C", "4H", "4D", "7D 7C 4S"], leader=3)
    t.play(3, "7D 7C")
    t.reject_play(0, "9S JK", "joker_single_only")


def test_gekijo_t03_heart_three_after_passing():
    t = g(["4S JK 6S", "5S 9D", "3H 4D 7D", "6D 8D"])
    t.play(0, "4S")
    t.play(1, "5S")
    t.pass_(2)
    t.play(3, "6D")
    t.play(0, "JK")
    kinds = t._do(Move.play(2, "3H", respond=True))
    assert kinds == ["played", "heart_three_return", "trick_cleared"]
    assert t.turn == 2 and t.view["table"] is None


def test_gekijo_t04_spade_three_does_not_beat_the_joker():
    t = g(["JK 5S", "3S 7D", "4C", "6C"])
    t.play(0, "JK")
    t.reject_play(1, "3S", "not_stronger")


def test_gekijo_t05_stairs_no_overlap_no_cut():
    t = g(["4D 5D 6D 3C", "5S 6S 7S 8S 9S", "4C", "6C"])
    t.play(0, "4D 5D 6D")
    t.reject_play(1, "5S 6S 7S", "not_stronger")
    assert t.play(1, "7S 8S 9S") == ["played"]
    assert t.turn == 2


def test_gekijo_t06_eleven_back_down_resets_passes():
    t = g(["5S 4C 6C", "7S JS 8C", "5H KH 9C", "9S TC QC"])
    t.play(0, "5S")
    t.play(1, "7S")
    t.pass_(2)
    t.play(3, "9S")
    t.pass_(0)
    assert t.play(1, "JS", choice="down") == ["played", "eleven_back", "passes_reset"]
    assert t.view["eleven_back"] == "down" and t.view["passed"] == []
    assert t.turn == 2
    t.reject_play(2, "KH", "not_stronger")
    assert t.play(2, "5H") == ["played"]


def test_gekijo_t07_up_call_during_revolution():
    t = g(["6S 6H 6D 6C QC 4C", "JD 9D 5D", "KS 2S 8H", "TH 9H 7H"])
    assert t.play(0, "6S 6H 6D 6C") == ["played", "revolution"]
    t.pass_(1)
    t.pass_(2)
    t.pass_(3)
    t.play(0, "QC")
    assert t.play(1, "JD", choice="up") == ["played", "eleven_back"]  # no pass reset (B4)
    assert t.view["eleven_back"] == "up" and t.view["revolution"] is True
    assert t.play(2, "KS") == ["played"]  # normal order for the rest of the trick
    t.pass_(3)
    t.pass_(0)
    assert t.pass_(1) == ["passed", "trick_cleared"]
    assert t.state.reversed is True and t.view["eleven_back"] is None


def test_gekijo_t08_kantsu_chain():
    t = g(["6S 6H 6D 6C 3C", "5S 5H 5D 5C 3H", "7S 7H 7D 7C 4H", "9D"])
    assert t.play(0, "6S 6H 6D 6C") == ["played", "revolution"]
    assert t.play(1, "5S 5H 5D 5C") == ["played", "revolution"]  # 王政復古
    assert t.view["revolution"] is False
    assert t.play(2, "7S 7H 7D 7C") == ["played", "revolution"]  # 独立 (B3)
    assert t.view["revolution"] is True


def test_gekijo_t09_joker_finish_is_bottom():
    t = g(["2S 3C", "4C 5C", "6C 7C", "JK"])
    t.play(0, "2S")
    t.pass_(1)
    t.pass_(2)
    assert t.play(3, "JK") == ["played", "foul_finish"]
    placing = t.state.placings()
    assert (placing[-1].seat, placing[-1].place, placing[-1].foul) == (3, 4, True)


def test_gekijo_t10_double_stairs_following():
    t = g(["4D 5D 6D 4S 5S 6S 3C", "7H 8H 9H 7C 8C 9C 5H 6H 5C 6C", "4C", "TC"])
    assert t.play(0, "4D 5D 6D 4S 5S 6S") == ["played"]
    assert t.view["table"]["combination"] == "double_stairs"
    t.reject_play(1, "5H 6H 7H 5C 6C 7C", "not_stronger")
    assert t.play(1, "7H 8H 9H 7C 8C 9C") == ["played"]


def test_gekijo_t11_eight_stairs_is_a_revolution_without_cut():
    t = g(["3S 4S 5S 6S 7S 8S 9S TS 3C", "4C", "5C", "6C"])
    assert t.play(0, "3S 4S 5S 6S 7S 8S 9S TS") == ["played", "revolution"]
    assert t.turn == 1


def test_gekijo_t12_ittsu_after_the_exchange():
    t = g(
        [
            "KS KH",
            "3D 4D 5D 5S 6D 7D 8D 9D TD JD QD KD AD",
            "2H 4C 6C",
            "QC QH 7C 8S",
        ],
        leader=None,
        titles=["daifugo", "fugo", "hinmin", "daihinmin"],
    )
    t.give(3, "QC QH")
    t.give(2, "2H")
    t.give(0, "KS KH")
    assert t.give(1, "5S")[-1] == "exchange_done"
    assert t.turn == 1  # ♦3 holder leads every game (B12)
    hand = t.state.hands[1]
    assert t._do(Move.play(1, hand, declare="instant_win")) == ["instant_win", "finished"]
    assert [(p.seat, p.place) for p in t.state.placings()] == [(1, 1)]
    assert t.state.played == hand  # the shown cards count as flowed
    assert t.turn == 2
