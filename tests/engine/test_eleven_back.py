"""`eleven_back` off / choice / toggle (REFERENCE §2.1 rule 9, B5, B6, D7, UE-T13)."""

from __future__ import annotations

import pytest

from games.engine import Move
from games.engine.rules import JDF

from .helpers import Table

# Different suits on every play keep the JDF suit lock out of the way.
HANDS = ["JS KC 4D", "5H QH 6C", "4C 9D", "3H 7D"]
BASE = JDF.with_overrides(blind_cards=0)


def table(mode: str) -> Table:
    return Table(HANDS, rules=BASE.with_overrides(eleven_back=mode), leader=0)


def test_off_a_jack_changes_nothing_and_a_call_is_invalid():
    t = table("off")
    t.reject_play(0, "JS", "choice_invalid", choice="down")
    assert t.play(0, "JS") == ["played"]
    t.reject_play(1, "5H", "not_stronger")
    assert t.play(1, "QH") == ["played"]


@pytest.mark.parametrize(("call", "weak", "strong"), [("down", "QH", "5H"), ("up", "5H", "QH")])
def test_choice_up_and_down(call, weak, strong):
    t = table("choice")
    assert t.play(0, "JS", choice=call) == ["played", "eleven_back"]
    assert t.view["eleven_back"] == call
    t.reject_play(1, weak, "not_stronger")
    assert t.play(1, strong) == ["played"]


def test_choice_is_optional_and_checked():
    t = table("choice")
    t.reject_play(0, "JS", "choice_invalid", choice="sideways")
    t.reject_play(0, "KC", "choice_invalid", choice="down")  # not a J
    assert t.play(0, "JS") == ["played"]  # no call: no change (B5), never choice_required
    assert t.view["eleven_back"] is None
    t.reject_play(1, "5H", "not_stronger")


def test_toggle_a_jack_flips_the_trick_order_until_it_flows():
    t = table("toggle")
    t.reject_play(0, "JS", "choice_invalid", choice="up")  # nothing to choose
    assert t.play(0, "JS") == ["played", "eleven_back"]
    assert t.view["eleven_back"] == "down" and t.state.reversed is True
    t.reject_play(1, "QH", "not_stronger")
    assert t.play(1, "5H") == ["played"]
    assert t.play(2, "4C") == ["played"]
    assert t.play(3, "3H") == ["played"]
    t.pass_(0)
    t.pass_(1)
    assert t.pass_(2) == ["passed", "trick_cleared"]
    assert t.view["eleven_back"] is None and t.state.reversed is False


def test_toggle_records_round_trip_without_choice():
    t = table("toggle")
    move = Move.play(0, "JS")
    assert move.choice is None
    assert t._do(move) == ["played", "eleven_back"]
