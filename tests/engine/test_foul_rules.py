"""`foul_finishes` and `foul_order` in isolation (REFERENCE §9, §2.1 r11, §3.1 r19–21, JDF r18)."""

from __future__ import annotations

import pytest

from games.engine.rules import JDF

from .helpers import Table


def finish_with(card: str, rules) -> list[str]:
    t = Table(["5C 6C", card, "7C", "9C"], rules=rules, leader=0)
    t.play(0, "5C")
    return t.play(1, card)


@pytest.mark.parametrize(
    ("mode", "two", "joker"),
    [
        ("standard", ["played", "foul_finish"], ["played", "foul_finish"]),
        ("joker", ["played", "finished"], ["played", "foul_finish"]),
        ("none", ["played", "finished"], ["played", "finished"]),
    ],
)
def test_foul_finishes(mode, two, joker):
    rules = JDF.with_overrides(foul_finishes=mode)
    assert finish_with("2S", rules) == two
    assert finish_with("JK", rules) == joker


def two_fouls(order: str) -> list[tuple[int, int, bool]]:
    # P2 fouls first (2S), then P4 (JK); P1 finishes clean; P3 is left.
    t = Table(["3C 5C", "2S", "4C 6H 7H", "JK"], rules=JDF.with_overrides(foul_order=order))
    t.play(0, "3C")
    assert t.play(1, "2S") == ["played", "foul_finish"]
    t.pass_(2)
    assert t.play(3, "JK") == ["played", "foul_finish"]
    assert t.pass_(0) == ["passed", "trick_cleared"]
    assert t.play(0, "5C") == ["played", "finished", "game_over"]
    return [(p.seat, p.place, p.foul) for p in t.state.placings()]


def test_first_lowest_puts_the_first_offender_last():
    assert two_fouls("first_lowest") == [(0, 1, False), (2, 2, False), (3, 3, True), (1, 4, True)]


def test_latest_lowest_puts_the_latest_offender_last():
    assert two_fouls("latest_lowest") == [(0, 1, False), (2, 2, False), (1, 3, True), (3, 4, True)]
