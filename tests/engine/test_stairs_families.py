"""イーペーコー and サンレンコー (REFERENCE §2.1 rules 5–7, B7–B9; gekijo preset)."""

from __future__ import annotations

from games.engine import Move, legal_moves, parse_cards
from games.engine.rules import GEKIJO, JDF

from .helpers import Table

RUN = "6S 6H 6C 7D 7H 7C 8S 8D 8C"
LOW = "3S 3H 3D 4S 4H 4D 5S 5H 5D"
HIGH = "9S 9H 9D TS TH TD QS QH QD"
MID = "9S 9H 9D TS TH TD JS JH JD"


def test_nobetan_double_stairs_is_a_revolution():
    t = Table(["3S 4S 5S 6S 3H 4H 5H 6H 9C", "4C", "5C", "7C"], rules=GEKIJO, leader=0)
    assert t.play(0, "3S 4S 5S 6S 3H 4H 5H 6H") == ["played", "revolution"]
    assert t.view["table"]["combination"] == "double_stairs"
    assert t.turn == 1


def test_short_double_stairs_is_no_revolution():
    t = Table(["3S 4S 5S 3H 4H 5H 9C", "4C", "5C", "7C"], rules=GEKIJO, leader=0)
    assert t.play(0, "3S 4S 5S 3H 4H 5H") == ["played"]
    assert t.view["revolution"] is False


def test_sanrenko_is_legal_and_never_a_revolution():
    t = Table([f"{RUN} 4C", f"{LOW} {MID}", "2C", "2D"], rules=GEKIJO, leader=0)
    assert t.play(0, RUN) == ["played"]  # 9 cards, three triples: no revolution, no 8-cut
    assert t.view["table"]["combination"] == "triple_run"
    assert t.view["revolution"] is False and t.turn == 1


def test_sanrenko_is_compared_by_its_triples():
    t = Table([f"{RUN} 4C", f"{LOW} {MID} 2S", "2C", "2D"], rules=GEKIJO, leader=0)
    t.play(0, RUN)
    t.reject_play(1, LOW, "not_stronger")
    follow = {m.cards for m in legal_moves(t.state) if m.seat == 1 and not m.is_pass}
    assert parse_cards(MID) in follow and parse_cards(LOW) not in follow
    assert t.play(1, MID) == ["played"]
    assert t.view["table"]["combination"] == "triple_run"


def test_a_nine_card_stairs_does_not_beat_a_sanrenko():
    run = "6S 6H 6D 7S 7H 7D 8S 8H 8D"
    stairs = "4C 5C 6C 7C 8C 9C TC JC QC"
    t = Table([f"{run} 2H", stairs, "2C", "2D"], rules=GEKIJO, leader=0)
    t.play(0, run)
    t.reject_play(1, stairs, "wrong_kind")


def test_sanrenko_with_a_gap_is_no_combination():
    t = Table([f"{RUN} 4C", HIGH, "2C", "2D"], rules=GEKIJO, leader=1)
    t.reject_play(1, HIGH, "invalid_combination")


def test_sanrenko_needs_the_switch():
    rules = JDF.with_overrides(blind_cards=0)
    t = Table([f"{RUN} 4C", "5C", "2C", "2D"], rules=rules, leader=0)
    t.reject(Move.play(0, RUN), "invalid_combination")
