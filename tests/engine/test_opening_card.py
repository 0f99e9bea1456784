"""`opening_card_required` and `opening_card_every_game` (REFERENCE §4.1 r5, D1, B12, A4)."""

from __future__ import annotations

from games.engine.rules import JDF

from .helpers import Table

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]


def test_not_required_the_holder_leads_anything():
    t = Table(
        ["5C", "3S 9H", "6C", "7C"],
        rules=JDF.with_overrides(opening_card_required=False),
        leader=None,
    )
    assert t.turn == 1
    t.reject_play(0, "5C", "not_your_turn")
    assert t.play(1, "9H") == ["played"]


def test_required_the_holder_must_include_it():
    t = Table(["5C", "3S 9H", "6C", "7C"], rules=JDF, leader=None)
    assert t.turn == 1
    t.reject_play(1, "9H", "must_include_opening_card")
    assert t.play(1, "3S") == ["played"]


def later_game(rules):
    # After the exchange 3S is with the 富豪 (seat 1), not with the 大貧民 (seat 3).
    t = Table(
        ["AS AH 5C", "KS 3S 6C", "2H 7C", "2S 2D 9C"], rules=rules, leader=None, titles=TITLES
    )
    t.give(3, "2S 2D")
    t.give(2, "2H")
    t.give(0, "AS AH")
    t.give(1, "KS")
    return t


def test_every_game_the_opening_card_holder_leads_after_the_exchange():
    t = later_game(JDF.with_overrides(opening_card_every_game=True))
    assert t.turn == 1
    t.reject_play(1, "6C", "must_include_opening_card")
    assert t.play(1, "3S") == ["played"]


def test_first_game_only_the_daihinmin_leads_later_games():
    t = later_game(JDF)
    assert JDF.opening_card_every_game is False
    assert t.turn == 3
    assert t.play(3, "9C") == ["played"]  # no opening card needed
