"""What a Guandan seat or the public may see: never another seat's cards (rule 16: counts
above 10 are not announced)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.guandan import GUANDAN, GUANDAN_CN, Match, Move, apply, deal_hands, new_game
from games.engine.multideck import from_cards, multi_names


def dealt_state():  # type: ignore[no-untyped-def]
    hands = deal_hands("observe", GUANDAN_CN)
    return new_game(GUANDAN_CN, list(hands), leader=0), hands


def test_the_public_sees_no_hand() -> None:
    state, _hands = dealt_state()
    view = GUANDAN.observe(state, None)
    assert "hand" not in view
    assert view["counts"] == [None, None, None, None]
    assert view["level"] == "2" and view["turn"] == 0


def test_a_seat_sees_its_own_hand_only() -> None:
    state, hands = dealt_state()
    for seat in range(4):
        view = GUANDAN.observe(state, seat)
        assert view["hand"] == multi_names(hands[seat])
        counts = view["counts"]
        assert isinstance(counts, list)
        assert counts[seat] == 27
        assert [c for s, c in enumerate(counts) if s != seat] == [None, None, None]


def test_counts_of_ten_or_fewer_are_public() -> None:
    state = new_game(GUANDAN_CN, ["3S 4S", "5S", "6S", "7S"], leader=0)
    assert GUANDAN.observe(state)["counts"] == [2, 1, 1, 1]


def test_a_returned_card_is_seen_by_its_giver_and_receiver_only() -> None:
    state = new_game(
        GUANDAN_CN, ["KS 5S", "6D 7D", "8D 9D", "BJ 3D"], match=Match((4, 2), previous=(0, 1, 2, 3))
    )
    state, _ = apply(state, Move.tribute(3, "BJ"))
    state, _ = apply(state, Move.give_back(0, "5S"))
    public = GUANDAN.observe(state)
    assert public["tributes"] == [{"seat": 3, "card": "BJ", "to": 0}]
    assert "returns" not in public
    assert GUANDAN.observe(state, 3)["returns"] == [{"seat": 0, "card": "5S", "to": 3}]
    assert GUANDAN.observe(state, 1)["returns"] == []
    assert "5S" not in repr(GUANDAN.observe(state, 1))


@settings(max_examples=25)
@given(st.integers(0, 10_000), st.integers(0, 3), st.integers(0, 150))
def test_a_view_does_not_change_when_the_hidden_hands_do(seed: int, viewer: int, at: int) -> None:
    # Deal the cards nobody but the viewer holds again among the other seats, keeping each
    # one's count: the viewer's view (and the public one) stays the same.
    rng = random.Random(seed)
    state, _hands = dealt_state()
    for _ in range(at):
        if GUANDAN.is_over(state):
            break
        state, _ = apply(state, rng.choice(list(GUANDAN.legal_moves(state))))
    others = [s for s in range(4) if s != viewer]
    pool = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for seat in others:
        size = len(state.hands[seat])
        hands[seat], pool = from_cards(pool[:size]), pool[size:]
    shuffled = replace(state, hands=tuple(hands))
    assert GUANDAN.observe(shuffled, viewer) == GUANDAN.observe(state, viewer)
    assert GUANDAN.observe(shuffled, None) == GUANDAN.observe(state, None)
