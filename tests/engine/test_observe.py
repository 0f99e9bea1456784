"""observe(): what live feeds see."""

from __future__ import annotations

import json

import pytest

from games.engine import EngineError, observe

from .helpers import Table


def test_hands_hidden_except_own_until_the_game_ends():
    t = Table(["4C", "5C", "6C", "7C 8C"], leader=0, blind="9S 9H")
    public = observe(t.state, None)
    assert public["hands"] == [None, None, None, None]
    assert public["counts"] == [1, 1, 1, 2]
    assert "blind" not in public
    mine = observe(t.state, 3)
    assert mine["hands"] == [None, None, None, ["7C", "8C"]]
    json.dumps(mine)
    t.play(0, "4C")
    t.play(1, "5C")
    t.play(2, "6C")
    over = observe(t.state, None)
    assert over["hands"] == [[], [], [], ["7C", "8C"]]
    assert over["blind"] == ["9S", "9H"]
    assert [p["seat"] for p in over["placings"]] == [0, 1, 2, 3]


def test_exchange_view_shows_only_own_give():
    t = Table(
        ["3S 4S 5S 6S", "7S 8S 9S TS", "2S 2H JS", "JK 2D QS KS"],
        leader=None,
        titles=["daifugo", "fugo", "hinmin", "daihinmin"],
    )
    t.give(3, "JK 2D")
    assert observe(t.state, 3)["exchange_given"] == ["2D", "JK"]
    assert "exchange_given" not in observe(t.state, 0)
    assert observe(t.state, None)["exchange_pending"] == [0, 1, 2]


def test_table_lock_and_turn_are_public():
    t = Table(["5H 4C", "9H 5C", "KS 6C", "7D 8D"], leader=0)
    t.play(0, "5H")
    t.play(1, "9H")
    view = observe(t.state, None)
    assert view["lock"] == ["H"] and view["turn"] == 2
    assert view["table"] == {"seat": 1, "cards": ["9H"], "combination": "single", "as": []}


def test_bad_viewer():
    t = Table(["5H", "9H", "KS", "7D"], leader=0)
    with pytest.raises(EngineError):
        observe(t.state, 7)
