"""Going out on each effect card, as REFERENCE §6.1 (seed 004) states it, card by card: the
effects that apply when going out (4 draws, 9 / three 9s, 2 in a revolution, K), those that
do not (7, 10, Q), and those that keep the player in (4, A). The expectations are written
from the rule text, not read from the engine. Seat 0 plays its last cards; nobody else is
out; the pile holds enough cards."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import pending
from games.engine.errors import IllegalMove

from .daizaibatsu_helpers import game, play

OTHERS = ["3H 5H", "3D 6D", "3C 7C"]
PILE = ["TC", "TD", "TH", "JC", "JD", "JH", "QC", "QD"]

# card(s) played as the last cards → (is seat 0 out, the decisions then owed as (seat, kind,
# to), how many cards seat 0 holds afterwards)
CASES = {
    # rule 4: the draw applies when going out, so the player draws 4 and is still in
    "4S": (False, [], 4),
    # rule 5: the finisher is out; the skip still applies to the players after them
    "5S": (True, [], 0),
    # rule 6: the open hand has no cards; the finish stands
    "6S": (True, [], 0),
    # rule 7: no effect when the 7s are the last cards
    "7S": (True, [], 0),
    # rule 9: a single 9 reverses; the finish stands
    "9S": (True, [], 0),
    # rule 9: three 9s apply when going out: the player names who draws 3
    "9S 9H 9D": (False, [(0, "target", None)], 0),
    # rule 10: no effect when the 10s are the finishing play
    "TS": (True, [], 0),
    # rule 11: the 11-back changes the order only; the finish stands
    "JS": (True, [], 0),
    # rule 12: the finisher is exempt both ways; the others give round them
    "QS": (False, [(1, "give", 2), (2, "give", 3), (3, "give", 1)], 0),
    # rule 13: the K still destroys the next player's card
    "KS": (False, [(0, "destroy", 1)], 0),
}


@pytest.mark.parametrize("cards", sorted(CASES))
def test_going_out_on_an_effect_card(cards: str) -> None:
    out_at_once, owed, held = CASES[cards]
    state, _ = play(game([cards, *OTHERS], pile=PILE), 0, cards)
    assert (0 in state.out) == out_at_once
    assert [(d.seat, d.kind, d.to) for d in pending(state)] == owed
    assert state.counts[0] == held


@pytest.mark.parametrize("cards", ["AS", "2S", "8S", "JK"])
def test_cards_a_player_may_not_go_out_with(cards: str) -> None:
    # rule 14: an A takes back, so it never finishes; rule 15: not with 2s in normal order;
    # rule 8: not with 8s only; rule 16: not with jokers only (F4: refused).
    state = game([cards, *OTHERS], pile=PILE)
    with pytest.raises(IllegalMove) as error:
        play(state, 0, cards)
    assert error.value.code == "forbidden_finish"
    assert state.counts[0] == 1
