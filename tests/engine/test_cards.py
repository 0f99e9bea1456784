from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    FULL_DECK,
    InvalidNotation,
    card_names,
    format_card,
    format_cards,
    iter_cards,
    normalise_jokers,
    parse_card,
    parse_cards,
)
from games.engine.cards import JOKER, JOKER_2, make_card, rank_of, suit_of


def test_canonical_notation_maps_rank_major_bits():
    assert parse_card("3S") == 0
    assert parse_card("3D") == 2
    assert parse_card("TS") == make_card(7, 0) == 28
    assert parse_card("2C") == 51
    assert parse_card("JK") == JOKER == 52


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10S", "TS"),
        ("♠10", "TS"),
        ("s10", "TS"),
        ("ts", "TS"),
        ("♥3", "3H"),
        ("d5", "5D"),
        ("♣A", "AC"),
        (" qh ", "QH"),
        ("jk", "JK"),
        ("Joker", "JK"),
        ("♧2", "2C"),
    ],
)
def test_lenient_notation(text, canonical):
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["", "1S", "11S", "XX", "3", "S", "3X", "JKK", "10", "♠", "3SS"])
def test_malformed_notation_raises_unknown_card(text):
    with pytest.raises(InvalidNotation) as info:
        parse_card(text)
    assert info.value.code == "unknown_card"
    assert isinstance(info.value, ValueError)


def test_parse_cards_accepts_text_and_sequences_and_two_jokers():
    mask = parse_cards("3D TS, JK jk")
    assert mask == parse_cards(["3D", "TS", "JK", "JK"])
    assert mask >> 52 == 3
    assert card_names(mask) == ["3D", "TS", "JK", "JK"]


@pytest.mark.parametrize("text", ["3D 3D", "JK JK JK", "3d ♦3"])
def test_parse_cards_rejects_repeats(text):
    with pytest.raises(InvalidNotation):
        parse_cards(text)


def test_rank_and_suit_helpers():
    assert rank_of(parse_card("2H")) == 12
    assert suit_of(parse_card("2H")) == 1
    assert rank_of(JOKER_2) == 13
    assert suit_of(JOKER) == -1
    assert list(iter_cards(parse_cards("5C 3S"))) == [0, 11]


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_round_trip_format_then_parse(mask):
    assert parse_cards(format_cards(mask)) == normalise_jokers(mask)


@given(st.integers(min_value=0, max_value=53))
def test_round_trip_single_card(card):
    assert parse_card(format_card(card)) == min(card, JOKER)


@given(st.text(max_size=6))
def test_random_text_only_raises_invalid_notation(text):
    with contextlib.suppress(InvalidNotation):
        parse_cards(text)


def test_format_rejects_out_of_range():
    with pytest.raises(InvalidNotation):
        format_cards(1 << 54)
    with pytest.raises(InvalidNotation):
        format_card(54)
