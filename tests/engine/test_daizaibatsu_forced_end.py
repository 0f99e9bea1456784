"""F2 and rule 24: an empty pile at a draw is renewed from the flowed, discarded and destroyed
cards twice; the third exhaustion ends the game at once, the players still in ranked by fewest
cards (DZ-T14)."""

from __future__ import annotations

from games.engine.daizaibatsu import RENEWAL_ALGORITHM, outcome, renewal_order
from games.engine.daizaibatsu_combos import parse
from games.engine.deal import shuffled

from .daizaibatsu_helpers import game, pass_, play


def test_an_empty_pile_is_renewed_from_the_flowed_cards() -> None:
    state = game(["3S 3H 3C 6D 6C 4S 9S", "6H 3D", "5H 9C", "7S 9D"], pile=[])
    state, _ = play(state, 0, "3S 3H 3C")  # 砂嵐: the trick flows, seat 0 leads
    state, _ = play(state, 0, "6D 6C")
    for seat in (1, 2, 3):
        state, _ = pass_(state, seat)
    assert len(state.flowed) == 5
    state, kinds = play(state, 0, "4S")
    assert kinds == ["played", "pile_renewed", "drew"]
    assert state.renewals == 1 and state.counts[0] == 1 + 4 and state.pile_count == 1


def test_the_third_exhaustion_ends_the_game_fewest_cards_first() -> None:
    state = game(["4S 3C 5C", "6H 3D 7D 8D", "3H", "3S 9D"], pile=[])
    state = state._replace(renewals=2)
    state, kinds = play(state, 0, "4S")
    assert kinds == ["played", "forced_end", "game_over"]
    results = outcome(state)
    assert results is not None
    assert [r.seat for r in results] == [2, 0, 3, 1]
    assert all(r.detail["forced_end"] for r in results)
    assert results[0].detail["title"] == "daifugo"


def test_equal_counts_share_by_seat_order_from_the_drawer() -> None:
    state = game(["3D 9C", "6H 3S", "4S 3C 3H", "9D 5C 5D"], pile=[], leader=2)
    state = state._replace(renewals=2)
    state, _ = play(state, 2, "4S")
    results = outcome(state)
    assert results is not None
    assert [r.seat for r in results] == [2, 0, 1, 3]


def test_renewal_shuffles_the_sorted_cards_on_the_deal_seed_and_the_renewal_number() -> None:
    cards = parse("8S 3S 4S JK 5S 6S 7S")
    in_order = (0, 4, 8, 12, 16, 20, 52)
    assert renewal_order(None, 1, cards) == in_order
    for number in (1, 2):
        expected = shuffled(b"seed\x00" + str(number).encode(), RENEWAL_ALGORITHM, in_order)
        assert renewal_order(b"seed", number, cards) == expected
