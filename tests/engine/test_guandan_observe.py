"""What a Guandan seat or the public may see: never another seat's cards (rule 16: counts
above 10 are not announced)."""

from __future__ import annotations

from games.engine.guandan import GUANDAN, GUANDAN_CN, Match, Move, apply, deal_hands, new_game
from games.engine.multideck import multi_names


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
