"""The UECda 8×15 card table: hand-written tables from REFERENCE §4.1 rule 19, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import EngineError, new_game, parse_cards
from games.engine.cards import lowest_cards, parse_joker_targets
from games.engine.rules import UECDA
from games.engine.uecda import (
    PROTOCOL_VERSION,
    cards_to_table,
    empty_table,
    from_bytes,
    message,
    profile,
    profile_name,
    table_to_cards,
    to_bytes,
)


def test_hand_written_hand_table():
    # A hand 3S, TD, 2C and the joker: rows S H D C, columns 1..13 = 3..2, joker at [4][1].
    table = empty_table()
    table[0][1] = 1  # 3S
    table[2][8] = 1  # TD
    table[3][13] = 1  # 2C
    table[4][1] = 2  # the joker of a hand
    assert cards_to_table(parse_cards("3S TD 2C JK"), hand=True) == table
    assert table_to_cards(table) == (parse_cards("3S TD 2C JK"), 0)


def test_lone_joker_positions():
    assert cards_to_table(parse_cards("JK"))[0][14] == 2
    assert cards_to_table(parse_cards("JK"), reversed_order=True)[0][0] == 2
    table = empty_table()
    table[2][0] = 2  # any row is read
    assert table_to_cards(table) == (parse_cards("JK"), 0)


@pytest.mark.parametrize(
    "bad",
    [
        {(0, 0): 1},  # a real card on a virtual column
        {(0, 3): 3},
        {(4, 2): 1},
        {(4, 1): 2, (0, 14): 2},  # two jokers
    ],
)
def test_malformed_tables_are_rejected(bad):
    table = empty_table()
    for (r, c), v in bad.items():
        table[r][c] = v
    with pytest.raises(EngineError):
        table_to_cards(table)


@given(st.integers(0, (1 << 52) - 1), st.booleans())
def test_round_trip_of_hands(numbers, joker):
    cards = numbers | (1 << 52 if joker else 0)
    table = cards_to_table(cards, hand=True)
    assert table_to_cards(table) == (cards, 0)
    assert from_bytes(to_bytes(table)) == table
    assert len(to_bytes(table)) == 480


@given(st.integers(0, 12), st.integers(0, 3), st.integers(3, 6), st.data())
def test_round_trip_of_stairs_with_the_joker(start, suit, length, data):
    start = min(start, 13 - length)
    ranks = list(range(start, start + length))
    joker_at = data.draw(st.sampled_from(ranks))
    nat = sum(1 << (r * 4 + suit) for r in ranks if r != joker_at)
    as_cards = 1 << (joker_at * 4 + suit)
    table = cards_to_table(nat | 1 << 52, as_cards=as_cards)
    assert table_to_cards(table) == (nat | 1 << 52, as_cards)


@pytest.mark.parametrize(
    ("cards", "beyond", "cell"),
    [("AH 2H JK", "+H", (1, 14)), ("JK 3S 4S", "-S", (0, 0)), ("JK 3C 4C 5C", "-C", (3, 0))],
)
def test_a_joker_beyond_the_ends_of_stairs_is_at_column_0_or_14(cards, beyond, cell):
    # REFERENCE §4.1 rule 13a: columns 0 and 14 are the joker's positions below 3 and above 2.
    as_cards = parse_joker_targets(beyond)
    table = cards_to_table(parse_cards(cards), as_cards=as_cards)
    row, col = cell
    assert table[row][col] == 2
    assert sum(v == 2 for r in table for v in r) == 1
    assert table_to_cards(table) == (parse_cards(cards), as_cards)


def test_a_sets_joker_with_a_suit_is_in_that_suits_row():
    # REFERENCE §4.1 rule 13b: 2H JK standing for 2S.
    table = cards_to_table(parse_cards("2H JK"), as_cards=parse_cards("2S"))
    assert table[1][13] == 1 and table[0][13] == 2 and table[4][13] == 0
    assert table_to_cards(table) == (parse_cards("2H JK"), parse_cards("2S"))


def test_state_rows_in_a_message():
    state = new_game(UECDA, ["3D 4D", "5D", "6D", "7D", "8D"])
    msg = message(state, 0, state.hands[0])
    assert msg[5][2] == 1 and msg[5][3] == 0 and msg[5][4] == 1  # your turn, seat 0, empty
    assert msg[6][:5] == [2, 1, 1, 1, 1]
    assert msg[6][5:10] == [0, 0, 0, 0, 0]  # same titles: the first game
    assert len(msg) == 8 and all(len(row) == 15 for row in msg)


def test_state_rows_number_players_by_connection_and_say_who_sits_where():
    # Engine seat s is played by player players[s]: seat 0 (3D 4D, to move) is player 2.
    state = new_game(UECDA, ["3D 4D", "5D", "6D", "7D", "8D 9D TD"])
    players = [2, 0, 4, 1, 3]
    msg = message(state, 0, state.hands[0], players=players)
    assert msg[5][2] == 1 and msg[5][3] == 2  # your turn; player 2's turn
    assert msg[6][:5] == [1, 1, 2, 3, 1]  # counts by player number
    assert msg[6][10:15] == players  # [6][10 + seat]: the player sitting there


def test_a_profile_carries_the_version_and_the_name():
    table = profile("kakumei-bot")
    assert table[0][0] == PROTOCOL_VERSION
    assert profile_name(from_bytes(to_bytes(table))) == "kakumei-bot"
    table[1][3] = 200  # not printable ASCII
    assert profile_name(table) == "kak?mei-bot"


def test_lowest_cards_are_the_weakest_in_the_normal_order():
    hand = parse_cards("2S 3H 9C JK 3S")
    assert lowest_cards(hand, 2) == parse_cards("3S 3H")
    assert lowest_cards(hand, 4) == parse_cards("3S 3H 9C 2S")
    assert lowest_cards(hand, 9) == hand
