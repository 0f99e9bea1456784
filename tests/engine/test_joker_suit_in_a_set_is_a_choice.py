"""`joker_suit_choice`: the suit a joker stands for in a set is the player's choice and
decides a lock (REFERENCE §4.1 rule 13b, with rule 11 `lock_counts_joker_suits`).
Seats 0..4 are P1..P5."""

from __future__ import annotations

from games.engine import JDF, card_names, legal_moves, parse_cards
from games.engine.rules import UECDA

from .helpers import Table

RULE_13B = UECDA.with_overrides(joker_suit_choice=True)


def table(hands, rules=RULE_13B):
    return Table(hands, rules=rules, leader=0)


def choices(t, cards):
    """What the joker stands for in each listed move playing ``cards``."""
    mask = parse_cards(cards)
    return sorted(" ".join(card_names(m.as_cards)) for m in legal_moves(t.state) if m.cards == mask)


def on_aces(rules=RULE_13B):
    t = table(["AS AH 3C", "2H JK 4C", "5C", "6C", "7C"], rules)
    t.play(0, "AS AH")
    return t


def test_on_as_ah_2h_jk_is_three_distinct_moves():
    assert choices(on_aces(), "2H JK") == ["2C", "2D", "2S"]


def test_2h_jk_as_2s_locks_spades_and_hearts():
    t = on_aces()
    assert t.play(1, "2H JK", as_="2S") == ["played", "lock_started"]
    assert t.lock == ["S", "H"]


def test_2h_jk_as_2d_or_2c_locks_nothing():
    for suit in ("2D", "2C"):
        t = on_aces()
        assert t.play(1, "2H JK", as_=suit) == ["played"]
        assert t.lock == []


def test_a_led_set_with_the_joker_has_the_suits_chosen():
    hands = ["9H JK 3C", "TH TS 4C", "5C", "6C", "7C"]
    t = table(hands)
    t.play(0, "9H JK", as_="9S")
    assert t.view["table"]["as"] == ["9S"]
    assert t.play(1, "TH TS") == ["played", "lock_started"]
    t = table(hands)
    t.play(0, "9H JK", as_="9D")
    assert t.play(1, "TH TS") == ["played"]


def test_under_a_lock_only_the_locked_suit_is_listed():
    t = table(["5S 5H 3C", "7S 7H 4C", "9H 9D JK", "6C", "8C"])
    t.play(0, "5S 5H")
    t.play(1, "7S 7H")
    assert choices(t, "9H JK") == ["9S"]
    t.reject_play(2, "9H JK", "suit_locked", as_="9D")
    assert t.play(2, "9H JK", as_="9S") == ["played"]


def test_without_as_the_joker_matches_the_table_as_today():
    t = on_aces()
    assert t.play(1, "2H JK") == ["played", "lock_started"]
    assert t.view["table"]["as"] == ["2S"]


def test_without_as_a_led_joker_takes_the_first_free_suit():
    t = table(["9H JK 3C", "TH TS 4C", "5C", "6C", "7C"])
    t.play(0, "9H JK")
    assert t.view["table"]["as"] == ["9S"]


def test_in_reversed_order_the_choice_decides_the_lock_too():
    t = table(["9S 9H 9D 9C KS KH 3C", "QH JK 4C", "5C", "6C", "7C"])
    t.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    t.play(0, "KS KH")
    assert choices(t, "QH JK") == ["QC", "QD", "QS"]
    assert t.play(1, "QH JK", as_="QS") == ["played", "lock_started"]


def test_a_quintuples_joker_has_no_suit_left():
    t = table(["9S 9H 9D 9C JK 3C", "4C", "5C", "6C", "7C"])
    assert choices(t, "9S 9H 9D 9C JK") == [""]
    t.reject_play(0, "9S 9H 9D 9C JK", "bad_joker_assignment", as_="9S")


def test_the_number_of_suits_is_one_per_joker():
    t = on_aces()
    t.reject_play(1, "2H JK", "bad_joker_assignment", as_="2S 2D")


def test_switch_off_the_joker_is_listed_once():
    assert choices(on_aces(UECDA), "2H JK") == [""]


def test_without_lock_counts_joker_suits_the_choice_is_not_listed():
    rules = JDF.with_overrides(joker_suit_choice=True)
    t = Table(["AS AH 4D", "2H JK 4C", "3S", "6C"], rules=rules, leader=0)
    t.play(0, "AS AH")
    assert choices(t, "2H JK") == [""]
    assert t.play(1, "2H JK") == ["played"]
