"""Open-table mode: unknown hands, checked by counts and by cards already seen."""

from __future__ import annotations

import pytest

from games.engine import JDF, Move, RecordError, apply, legal_moves, new_game, observe, parse_cards

from .helpers import Table


def open_table() -> Table:
    return Table([None, None, None, None], leader=0, counts=[2, 2, 2, 2], blind="9S 9H")


def test_open_table_checks_everything_but_possession():
    t = open_table()
    assert t.play(0, "5D") == ["played"]
    t.reject_play(1, "5D", "card_not_in_hand")  # already played
    t.reject_play(1, "9S", "card_not_in_hand")  # a known blind card
    t.reject_play(1, "4D", "not_stronger")
    t.reject_play(1, "6D 6H", "wrong_count")
    assert t.play(1, "6D") == ["played", "lock_started"]
    t.reject_play(2, "KS", "suit_locked")


def test_player_is_out_after_playing_as_many_cards_as_dealt():
    t = open_table()
    t.play(0, "5D")
    t.pass_(1)
    t.pass_(2)
    t.pass_(3)
    assert t.play(0, "7C") == ["played", "finished"]
    t.reject(Move.play(1, "TC TD TH"), "card_not_in_hand")  # more than dealt


def test_mixed_known_and_unknown_hands():
    t = Table(["3S 5C", None, "7D 8D", "9H TH"], leader=None, counts=[2, 2, 2, 2])
    assert t.turn == 0  # the known 3S holder
    t.play(0, "3S")
    t.reject_play(1, "7D", "card_not_in_hand")  # known to be in seat 2's hand
    assert t.play(1, "6C") == ["played"]


def test_unknown_hand_needs_a_count():
    with pytest.raises(RecordError):
        new_game(JDF, [None, "5C", "6C", "7C"], leader=0)
    with pytest.raises(RecordError):
        new_game(JDF, ["4C", "5C", "6C", "7C"], counts=[2, 1, 1, 1])


def test_legal_moves_for_an_unknown_seat_are_accepted():
    state = new_game(JDF, [None, "6C 7C", "8D 9D", "TH JH"], counts=[2, 2, 2, 2], leader=0)
    moves = list(legal_moves(state))
    assert moves
    assert all(m.cards.bit_count() <= 2 for m in moves)
    for m in moves[:200]:
        apply(state, m)


def test_blind_cards_reconciled_at_the_end():
    t = Table([None, None, None, None], leader=0, counts=[1, 1, 1, 2], blind="9S 9H")
    t.play(0, "4C")
    t.play(1, "5C")
    t.play(2, "6C")
    view = observe(t.state, None)
    assert view["phase"] == "over"
    assert view["blind"] == ["9S", "9H"]
    unaccounted = parse_cards(view["unaccounted"])
    assert unaccounted.bit_count() == 54 - 3 - 2  # seat 3's two cards are among them
