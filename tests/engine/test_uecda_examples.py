"""REFERENCE §4.3 worked examples (uecda preset); seats 0..4 are P1..P5."""

from __future__ import annotations

from games.engine import Move, legal_moves, parse_cards
from games.engine.rules import UECDA
from games.engine.uecda import cards_to_table, state_rows

from .helpers import Table


def ue(hands, **kw):
    kw.setdefault("rules", UECDA)
    return Table(hands, **kw)


def test_uecda_t01_no_overlap_and_an_eight_in_a_sequence_cuts():
    t = ue(["4S 5S 6S 3C", "6H 7H 8H 9H", "4C", "5C", "7C"])
    t.play(0, "4S 5S 6S")
    t.reject_play(1, "6H 7H 8H", "not_stronger")
    assert t.play(1, "7H 8H 9H") == ["played", "eight_cut", "trick_cleared"]
    assert t.turn == 1


def test_uecda_t02_reversed_sequences():
    t = ue(["4S 4H 4D 4C 9S TS JS 3C", "5H 6H 7H TH JH QH", "5C", "6C", "7C"])
    t.play(0, "4S 4H 4D 4C")
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    t.play(0, "9S TS JS")
    t.reject_play(1, "TH JH QH", "not_stronger")
    assert t.play(1, "5H 6H 7H") == ["played"]


def test_uecda_t03_five_sequence_revolution():
    t = ue(["3D 4D 5D 6D 7D 9C", "4C", "5C", "6C", "7C"])
    assert t.play(0, "3D 4D 5D 6D 7D") == ["played", "revolution"]


def test_uecda_t04_quintuple():
    t = ue(["9S 9H 9D 9C JK 3C", "4C", "5C", "6C", "7C"])
    assert t.play(0, "9S 9H 9D 9C JK") == ["played", "revolution"]
    table = cards_to_table(parse_cards("9S 9H 9D 9C JK"))
    assert [table[row][7] for row in range(4)] == [1, 1, 1, 1]
    assert table[4][7] == 2


def test_uecda_t05_joker_on_a_two_then_spade_three():
    t = ue(["2D 4C", "JK 5C", "3S 6C", "7C", "8C"])
    t.play(0, "2D")
    assert t.play(1, "JK") == ["played"]
    assert t.play(2, "3S") == ["played", "spade_three_return", "trick_cleared"]
    assert t.turn == 2


def test_uecda_t06_lock_and_a_lone_joker():
    t = ue(["5H 4C", "7H 5C", "9S JK 6C", "8C", "TC"])
    t.play(0, "5H")
    assert t.play(1, "7H") == ["played", "lock_started"]
    t.reject_play(2, "9S", "suit_locked")
    assert t.play(2, "JK") == ["played"]


def test_uecda_t07_locked_pair_with_the_jokers_suit():
    t = ue(["5H 5S 4C", "7H 7S 5C", "9H 9D JK 6C", "8C", "TC"])
    t.play(0, "5H 5S")
    assert t.play(1, "7H 7S") == ["played", "lock_started"]
    t.reject_play(2, "9H 9D", "suit_locked")
    assert t.play(2, "9H JK", as_="9S") == ["played"]


def test_uecda_t08_pass_on_an_empty_table():
    t = ue(["3C 9C", "4C", "5C", "6C", "7C"])
    assert t.pass_(0) == ["passed"]
    assert t.turn == 1 and t.view["table"] is None
    assert t.play(1, "4C")[0] == "played"
    assert 0 in t.view["passed"]  # P1 sleeps until the trick flows


def test_uecda_t09_going_out_on_an_eight():
    t = ue(["5D 4C", "3C 9C", "8C", "6C 7C", "TC JC"])
    t.play(0, "5D")
    t.pass_(1)
    assert t.play(2, "8C") == ["played", "finished", "eight_cut", "trick_cleared"]
    assert t.turn == 3


def test_uecda_t10_score():
    t = ue(["9C", "5C", "4C", "3C", "7C"], leader=3)
    t.play(3, "3C")
    t.pass_(4)
    t.pass_(0)
    t.play(1, "5C")
    t.pass_(2)
    assert t.turn == 2
    t.pass_(2)  # passing on the empty table
    t.play(4, "7C")
    t.play(0, "9C")
    assert t.state.is_over
    order = [p.seat for p in t.state.placings()]
    assert order == [3, 1, 4, 0, 2]
    points = {p.seat: UECDA.score(p.place) for p in t.state.placings()}
    assert [points[s] for s in (3, 1, 4, 0, 2)] == [5, 4, 3, 2, 1]


def test_uecda_t11_exchange_lower_titles_first():
    titles = ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]
    t = ue(["3S 4S 3D", "5S 6S", "7S 8S", "9S TS", "JK 2S 4C"], leader=None, titles=titles)
    gives = {(m.seat, m.cards) for m in legal_moves(t.state)}
    assert {s for s, _ in gives} == {3, 4}  # only the lower titles give first
    assert (4, parse_cards("JK 2S")) in gives and all(
        s != 4 or c == parse_cards("JK 2S") for s, c in gives
    )
    t.reject(Move.give(0, "3S 4S"), "exchange_invalid")
    t.give(4, "JK 2S")
    t.give(3, "TS")
    assert state_rows(t.state, 0)[0][1] == 2
    t.give(0, "JK 3S")  # 大富豪 may give back what it received
    assert t.give(1, "5S")[-1] == "exchange_done"
    assert t.turn == 0  # the ♦3 holder leads


def test_uecda_t12_joker_inside_a_sequence_encoding():
    table = cards_to_table(parse_cards("5H 7H JK"), as_cards=parse_cards("6H"))
    assert (table[1][3], table[1][4], table[1][5]) == (1, 2, 1)


def test_uecda_t13_eleven_back_and_revolution_xor():
    # With 11-back on, a play covering J and a 4-of-a-kind in one trick are both
    # four-card sets: the J quad flips the permanent order and the trick order at once.
    rules = UECDA.with_overrides(eleven_back="toggle")
    t = ue(["JS JH JD JC 3C", "4C", "5C", "6C", "7C"], rules=rules)
    assert t.play(0, "JS JH JD JC") == ["played", "revolution", "eleven_back"]
    assert t.view["revolution"] is True and t.state.reversed is False
    for seat in (1, 2, 3):
        t.pass_(seat)
    assert t.pass_(4) == ["passed", "trick_cleared"]
    assert t.state.reversed is True
