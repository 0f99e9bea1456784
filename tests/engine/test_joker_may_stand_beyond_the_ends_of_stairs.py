"""`joker_beyond_ends`: a joker may stand below the 3 or above the 2 of stairs (REFERENCE
§4.1 rule 13a, superseding §4.2 D5). Seats 0..4 are P1..P5; `as` writes such a joker
`-S` … (below the 3) and `+S` … (above the 2)."""

from __future__ import annotations

import pytest

from games.engine import (
    JDF,
    Move,
    RecordError,
    apply,
    card_names,
    legal_moves,
    new_game,
    parse_cards,
)
from games.engine.cards import parse_joker_targets
from games.engine.daifugo import move_to_json
from games.engine.record import load_record
from games.engine.rules import UECDA

from .helpers import Table

RULE_13A = UECDA.with_overrides(joker_beyond_ends=True)
OTHERS = ["4C", "5C", "6C", "7C"]


def table(hands, rules=RULE_13A, **kw):
    return Table(hands, rules=rules, leader=0, **kw)


def readings(state, cards, declare=None):
    """What the jokers stand for in each listed move playing ``cards``."""
    mask = parse_cards(cards)
    return sorted(
        " ".join(card_names(m.as_cards))
        for m in legal_moves(state)
        if m.cards == mask and m.declare == declare
    )


def test_ah_2h_jk_reads_k_a_2_or_a_2_above_two():
    t = table(["AH 2H JK 3C", *OTHERS])
    assert readings(t.state, "AH 2H JK") == ["+H", "KH"]
    assert t.play(0, "AH 2H JK", as_="+H") == ["played"]
    assert t.view["table"] == {
        "seat": 0,
        "cards": ["AH", "2H", "JK"],
        "combination": "stairs",
        "as": ["+H"],
    }


def test_jk_3s_4s_reads_below_three_3_4_or_3_4_5():
    t = table(["JK 3S 4S 9C", *OTHERS])
    assert readings(t.state, "JK 3S 4S") == ["-S", "5S"]
    assert t.play(0, "JK 3S 4S", as_="-S") == ["played"]
    assert t.view["table"]["as"] == ["-S"]


def test_a_2_above_two_is_judged_from_its_weakest_card_the_a():
    # On J-Q-K stairs must not overlap: A-2-(above 2) starts above K, K-A-2 overlaps it.
    t = table(["JS QS KS 3C", "AH 2H JK 4D", "5C", "6C", "7C"])
    t.play(0, "JS QS KS")
    t.reject_play(1, "AH 2H JK", "not_stronger", as_="KH")
    assert t.play(1, "AH 2H JK", as_="+H") == ["played"]


def test_below_three_3_4_is_the_weakest_run_and_5_6_7_beats_it():
    t = table(["JK 3S 4S 9C", "5H 6H 7H 4D", "5C", "6C", "7C"])
    t.play(0, "JK 3S 4S", as_="-S")
    assert t.play(1, "5H 6H 7H") == ["played"]


def test_without_as_the_joker_takes_the_strongest_position():
    t = table(["AH 2H JK 3C", *OTHERS])
    t.play(0, "AH 2H JK")
    assert t.view["table"]["as"] == ["+H"]


def test_without_as_in_reversed_order_the_joker_stands_below_three():
    t = table(["9S 9H 9D 9C 3H 4H JK QC", *OTHERS])
    t.play(0, "9S 9H 9D 9C")  # revolution
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    t.play(0, "3H 4H JK")
    assert t.view["table"]["as"] == ["-H"]


def test_in_reversed_order_below_three_3_4_beats_5_6_7_which_nothing_else_can():
    hands = ["9S 9H 9D 9C 5D 6D 7D QC", "JK 3S 4S 8H", "5C", "6C", "7C"]
    t = table(hands)
    t.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    t.play(0, "5D 6D 7D")
    t.reject_play(1, "JK 3S 4S", "not_stronger", as_="5S")
    assert t.play(1, "JK 3S 4S", as_="-S") == ["played"]
    off = Table(hands, rules=UECDA, leader=0)
    off.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3, 4):
        off.pass_(seat)
    off.play(0, "5D 6D 7D")
    assert [m for m in legal_moves(off.state) if not m.is_pass] == []


def test_in_reversed_order_a_2_above_two_is_the_weakest_run():
    t = table(["9S 9H 9D 9C AH 2H JK QC", "TD JD QD 8C", "5C", "6C", "7C"])
    t.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    t.play(0, "AH 2H JK", as_="+H")
    assert t.play(1, "TD JD QD") == ["played"]


def test_length_counts_the_beyond_joker_for_a_revolution():
    t = table(["JK 3S 4S 5S 6S 9C", *OTHERS])
    assert t.play(0, "JK 3S 4S 5S 6S", as_="-S") == ["played", "revolution"]


def test_a_joker_beyond_the_ends_stands_for_no_8():
    # 3…7 plus the joker: below the 3 nothing is cut, as the 8 it cuts (§4.1 rule 10).
    t = table(["3S 4S 5S 6S 7S JK 9C", *OTHERS])
    before = t.state
    assert t.play(0, "3S 4S 5S 6S 7S JK", as_="-S") == ["played", "revolution"]
    _, events = apply(before, Move.play(0, "3S 4S 5S 6S 7S JK", as_="8S"))
    assert [e.kind for e in events] == ["played", "revolution", "eight_cut", "trick_cleared"]


def test_the_run_locks_its_suit():
    t = table(["JK 3S 4S 9C", "5S 6S 7S 4D", "8H 9H TH", "6C", "7C"])
    t.play(0, "JK 3S 4S", as_="-S")
    assert t.play(1, "5S 6S 7S") == ["played", "lock_started"]
    t.reject_play(2, "8H 9H TH", "suit_locked")


def test_two_jokers_may_stand_beyond_and_inside():
    rules = JDF.with_overrides(joker_beyond_ends=True)
    state = new_game(rules, ["2S JK JK 9D", "3C", "5C", "6C"], leader=0)
    assert readings(state, "2S JK JK", "stairs") == ["AS +S", "KS AS"]


def test_a_fourteen_card_run_needs_a_joker_beyond_an_end():
    spades = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S JK"
    t = Table([spades, "3C", "4C", "5C"], rules=JDF.with_overrides(joker_beyond_ends=True))
    assert t.play(0, spades)[0] == "played"
    assert t.view["table"]["as"] == ["+S"]
    off = Table([spades, "3C", "4C", "5C"], rules=JDF)
    off.reject_play(0, spades, "invalid_combination")


def test_switch_off_the_joker_never_stands_beyond_the_ends():
    t = table(["AH 2H JK 3C", *OTHERS], rules=UECDA)
    assert readings(t.state, "AH 2H JK") == ["KH"]
    t.reject_play(0, "AH 2H JK", "bad_joker_assignment", as_="+H")
    t.play(0, "AH 2H JK")
    assert t.view["table"]["as"] == ["KH"]


def test_a_beyond_joker_of_another_suit_or_in_a_set_is_refused():
    t = table(["AH 2H JK 2S 3C", *OTHERS])
    t.reject_play(0, "AH 2H JK", "bad_joker_assignment", as_="+S")
    t.reject_play(0, "AH 2H JK", "bad_joker_assignment", as_="-H")
    t.reject_play(0, "2H 2S JK", "bad_joker_assignment", as_="+H")


def test_the_record_writes_and_reads_the_beyond_positions():
    move = Move.play(0, "AH 2H JK", as_="+H")
    assert move.as_cards == parse_joker_targets("+♥")
    entry = move_to_json(move)
    assert entry == {"seat": 0, "play": ["AH", "2H", "JK"], "as": {"JK": "+H"}}
    record = {
        "format": "kakumei-record/1",
        "rules": {"preset": "uecda", "overrides": {"joker_beyond_ends": True}},
        "hands": [["AH", "2H", "JK", "3C"], ["4C"], ["5C"], ["6C"], ["7C"]],
        "leader": 0,
        "moves": [entry],
    }
    assert load_record(record).moves == (move,)
    record["moves"] = [{**entry, "as": {"JK": "+X"}}]
    with pytest.raises(RecordError) as info:
        load_record(record)
    assert info.value.key == "moves[0].as.JK[0]"
