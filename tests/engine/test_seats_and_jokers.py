"""`seats=5` and `jokers=1` as overrides on jdf (REFERENCE §4.1 rule 1, B1)."""

from __future__ import annotations

import random

import pytest

from games.engine import JDF, TITLES, apply, deal, legal_moves, new_game
from games.engine.cards import JOKERS, NUMBERS

FIVE = JDF.with_overrides(seats=5)
ONE_JOKER = JDF.with_overrides(jokers=1)


def play_out(seed: int, rules):
    rng = random.Random(seed)
    d = deal(seed, rules)
    state = new_game(rules, list(d.hands), blind=d.blind)
    for _ in range(3000):
        if state.is_over:
            break
        state, _events = apply(state, rng.choice(list(legal_moves(state))))
    assert state.is_over
    return d, state


def all_cards(d, state) -> int:
    seen = state.played | state.discarded | (d.blind or 0)
    for hand in state.hands:
        assert hand & seen == 0
        seen |= hand
    return seen


@pytest.mark.parametrize("seed", range(8))
def test_five_seats_a_full_game_gives_five_places(seed):
    d, state = play_out(seed, FIVE)
    assert len(d.hands) == 5
    assert sorted(h.bit_count() for h in d.hands) == [10, 10, 10, 11, 11]  # 54 - 2 blind
    placings = state.placings()
    assert [p.place for p in placings] == [1, 2, 3, 4, 5]
    assert sorted(p.seat for p in placings) == list(range(5))
    assert sorted(p.title for p in placings) == sorted(TITLES[5])


@pytest.mark.parametrize("seed", range(8))
def test_one_joker_cards_are_conserved(seed):
    d, state = play_out(seed, ONE_JOKER)
    dealt = 0
    for hand in d.hands:
        dealt |= hand
    assert sum(h.bit_count() for h in d.hands) == 53 - 2
    assert (dealt | d.blind) & JOKERS in (1 << 52, 1 << 53)
    assert ((dealt | d.blind) & JOKERS).bit_count() == 1
    assert all_cards(d, state) == (dealt | d.blind)
    assert all_cards(d, state) & NUMBERS == NUMBERS
    assert len(state.placings()) == 4
