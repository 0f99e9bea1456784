"""Rule 6: a 6 turns its player's hand face up for good; four 6s open every hand; a card given
away leaves open status. ``observe`` shows open hands to everyone and never a hidden hand or
the pile's order."""

from __future__ import annotations

import json

from games.engine.daizaibatsu import Move, observe

from .daizaibatsu_helpers import decide, game, pass_, play


def test_a_six_opens_the_hand_for_everyone_to_see() -> None:
    state = game(["6S 3C 9D", "4D KH", "4H", "4C"])
    state, kinds = play(state, 0, "6S")
    assert kinds == ["played", "hand_opened"]
    view = observe(state, 2)
    assert view["open_hands"] == {"0": ["3C", "9D"]}
    assert "KH" not in json.dumps(view)


def test_four_sixes_open_every_hand() -> None:
    state = game(["6S 6H 6D 6C 3C", "4D KH", "4H", "4C"])
    state, _ = play(state, 0, "6S 6H 6D 6C")
    assert set(observe(state, None)["open_hands"]) == {"0", "1", "2", "3"}  # type: ignore[arg-type]


def test_the_pile_and_hidden_hands_never_show() -> None:
    state = game(["3C 9D", "4D KH", "4H", "4C"], pile=["QS", "QH"])
    view = observe(state, 0)
    text = json.dumps(view)
    assert "QS" not in text and "KH" not in text
    assert view["hand"] == ["3C", "9D"]
    assert view["pile"] == 2
    assert "hand" not in observe(state, None)


def test_a_card_given_away_leaves_open_status() -> None:
    state = game(["6S 7C 9D AS", "4D KH", "5H", "4C"])
    state, _ = play(state, 0, "6S")
    for seat in (1, 2, 3):
        state, _ = pass_(state, seat)
    state, _ = play(state, 0, "7C")
    state, _ = decide(state, Move.cards_for(0, "give", "9D"))
    public = json.dumps(observe(state, None))
    assert "9D" not in public and "AS" in public
