"""Card exchange (カード交換, JDF §15; A15)."""

from __future__ import annotations

from games.engine import Move, apply, legal_moves, parse_cards

from .helpers import Table

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]
HANDS = ["3S 4S 5S 6S", "7S 8S 9S TS", "2S 2H JS", "JK 2D QS KS"]


def test_exchange_phase_then_daihinmin_leads():
    t = Table(HANDS, leader=None, titles=TITLES)
    assert t.state.phase_name == "exchange"
    t.reject_play(3, "QS", "exchange_invalid")
    t.give(3, "JK 2D")
    t.give(2, "2S")
    t.give(0, "3S 4S")
    assert t.give(1, "7S") == ["exchange_given", "exchange_done"]
    assert t.state.phase_name == "play" and t.turn == 3
    assert t.state.hands[0] == parse_cards("5S 6S JK 2D")
    assert t.state.hands[3] == parse_cards("QS KS 3S 4S")
    assert t.state.hands[1] == parse_cards("8S 9S TS 2S")
    assert t.state.hands[2] == parse_cards("2H JS 7S")
    assert t.state.must_open == 0  # no opening-card duty in a later game
    t.reject(Move.give(0, "5S"), "exchange_invalid")


def test_a15_ties_giver_chooses_the_suit():
    for give in ("2S", "2H"):
        t = Table(HANDS, leader=None, titles=TITLES)
        assert t.give(2, give) == ["exchange_given"]


def test_lower_title_must_give_strongest_joker_first():
    t = Table(HANDS, leader=None, titles=TITLES)
    t.reject(Move.give(2, "JS"), "exchange_invalid")  # 脱税
    t.reject(Move.give(3, "2D KS"), "exchange_invalid")  # the joker counts as strongest
    t.reject(Move.give(3, "JK"), "exchange_invalid")  # wrong count
    t.reject(Move.give(3, "JK 2C"), "card_not_in_hand")


def test_higher_title_gives_anything_and_only_once():
    t = Table(HANDS, leader=None, titles=TITLES)
    assert t.give(0, "6S 3S") == ["exchange_given"]
    t.reject(Move.give(0, "4S 5S"), "exchange_invalid")


def test_exchange_legal_moves_match_duties():
    t = Table(HANDS, leader=None, titles=TITLES)
    moves = list(legal_moves(t.state))
    by_seat: dict[int, set[int]] = {}
    for m in moves:
        assert m.exchange
        by_seat.setdefault(m.seat, set()).add(m.cards)
    assert by_seat[2] == {parse_cards("2S"), parse_cards("2H")}
    assert by_seat[3] == {parse_cards("JK 2D")}
    assert len(by_seat[0]) == 6 and len(by_seat[1]) == 4
    for m in moves:
        apply(t.state, m)  # every listed give is accepted


def test_both_jokers_must_be_given_by_daihinmin():
    t = Table(["3S 4S 5S 6S", "7S 8S 9S TS", "2S 2H JS", "JK JK QS KS"], leader=None, titles=TITLES)
    assert {m.cards for m in legal_moves(t.state) if m.seat == 3} == {parse_cards("JK JK")}
    t.reject(Move.give(3, "JK KS"), "exchange_invalid")
    t.give(3, "JK JK")


def test_leader_key_overrides_the_daihinmin_lead():
    t = Table(HANDS, leader=1, titles=TITLES)
    for seat, cards in ((3, "JK 2D"), (2, "2S"), (0, "3S 4S"), (1, "7S")):
        t.give(seat, cards)
    assert t.turn == 1
