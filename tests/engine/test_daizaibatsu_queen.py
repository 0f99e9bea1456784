"""Rule 12: n queens make every player still in give n chosen cards to the next player, all
at once; a player going out with the queens gives nothing."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def queen_played():  # type: ignore[no-untyped-def]
    state = game(["QS 3C 4C", "5D 6D", "7H 8H", "9S TS"])
    state, _ = play(state, 0, "QS")
    return state


def test_every_player_owes_a_card_to_the_next() -> None:
    assert pending(queen_played()) == (
        Decision(0, "give", 1, 1),
        Decision(1, "give", 1, 2),
        Decision(2, "give", 1, 3),
        Decision(3, "give", 1, 0),
    )


def test_the_gives_happen_together_once_all_have_chosen() -> None:
    state = queen_played()
    for seat, card in ((2, "7H"), (0, "3C"), (3, "9S")):
        state, kinds = decide(state, Move.cards_for(seat, "give", card))
        assert kinds == []
    state, kinds = decide(state, Move.cards_for(1, "give", "5D"))
    assert kinds == ["gave", "gave", "gave", "gave"]
    assert hand(state, 0) == ["4C", "9S"]
    assert hand(state, 1) == ["3C", "6D"]
    assert hand(state, 2) == ["5D", "8H"]
    assert hand(state, 3) == ["7H", "TS"]


def test_a_seat_gives_only_once() -> None:
    state, _ = decide(queen_played(), Move.cards_for(0, "give", "3C"))
    with pytest.raises(IllegalMove):
        decide(state, Move.cards_for(0, "give", "4C"))


def test_going_out_with_a_queen_is_exempt() -> None:
    state = game(["QS", "5D 6D", "7H 8H", "9S TS"])
    state, _ = play(state, 0, "QS")
    assert [d.seat for d in pending(state)] == [1, 2, 3]
