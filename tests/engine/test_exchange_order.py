"""`exchange_order` simultaneous vs lower_first (REFERENCE §4.1 rule 4, UE-T11; JDF A15)."""

from __future__ import annotations

from games.engine import Move, legal_moves, parse_cards
from games.engine.rules import JDF

from .helpers import Table

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]
HANDS = ["3S 4S 5S", "6S 7S", "8H 9S", "JK 2S 4C"]
BASE = JDF.with_overrides(blind_cards=0)


def test_simultaneous_anyone_may_give_first_from_the_dealt_hand():
    t = Table(HANDS, rules=BASE, leader=None, titles=TITLES)
    assert {m.seat for m in legal_moves(t.state)} == {0, 1, 2, 3}
    assert t.give(0, "3S 4S") == ["exchange_given"]
    t.reject(Move.give(0, "5S"), "exchange_invalid")
    t.give(1, "6S")
    t.give(2, "9S")
    assert t.give(3, "JK 2S")[-1] == "exchange_done"
    assert t.state.hands[0] & t.state.hands[3] == 0


def test_lower_first_the_higher_titles_wait_and_see_what_they_got():
    t = Table(
        HANDS, rules=BASE.with_overrides(exchange_order="lower_first"), leader=None, titles=TITLES
    )
    assert {m.seat for m in legal_moves(t.state)} == {2, 3}
    t.reject(Move.give(0, "3S 4S"), "exchange_invalid")
    t.reject(Move.give(1, "6S"), "exchange_invalid")
    t.give(3, "JK 2S")
    t.give(2, "9S")
    assert t.state.hands[0] & parse_cards("JK 2S") == parse_cards("JK 2S")
    t.give(0, "JK 3S")  # may give back a card it received
    assert t.give(1, "9S")[-1] == "exchange_done"
