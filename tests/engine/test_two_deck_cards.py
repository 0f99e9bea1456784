"""Two-deck games (Guandan's 108 cards) hold up to two copies of a card and two different
jokers; the multiset behaves like counting the cards one by one."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.cards import parse_card
from games.engine.deal import deal_multi
from games.engine.errors import InvalidNotation
from games.engine.multideck import (
    BIG_JOKER,
    DOUBLE_DECK,
    EMPTY,
    SMALL_JOKER,
    Cards,
    format_multi,
    from_cards,
    parse_multi,
)

# A multiset as a list of card numbers, each at most twice.
multisets = st.lists(st.integers(0, 53), max_size=40).map(
    lambda cards: [c for c, n in Counter(cards).items() for _ in range(min(n, 2))]
)


def counts(cards: Cards) -> Counter[int]:
    return Counter(iter(cards))


def test_the_double_deck_has_108_cards_and_two_kinds_of_joker():
    assert len(DOUBLE_DECK) == 108
    assert DOUBLE_DECK.count(SMALL_JOKER) == DOUBLE_DECK.count(BIG_JOKER) == 2
    assert parse_multi("SJ BJ") == from_cards([SMALL_JOKER, BIG_JOKER])
    assert parse_multi("小王 大王") == parse_multi("SJ BJ")


def test_a_one_deck_joker_name_is_ambiguous_in_a_two_deck_game():
    with pytest.raises(InvalidNotation, match="SJ"):
        parse_multi("JK")


def test_three_copies_of_a_card_are_refused():
    with pytest.raises(InvalidNotation):
        parse_multi("5H 5H 5H")
    with pytest.raises(ValueError):
        parse_multi("5H 5H") + parse_multi("5H")


@given(multisets)
def test_parse_and_format_round_trip(cards):
    hand = from_cards(cards)
    assert counts(hand) == Counter(cards)
    assert parse_multi(format_multi(hand)) == hand
    assert len(hand) == len(cards)


@given(multisets, multisets)
def test_adding_and_removing_count_like_counters(a, b):
    total = Counter(a) + Counter(b)
    if max(total.values(), default=0) > 2:
        with pytest.raises(ValueError):
            from_cards(a) + from_cards(b)
        return
    both = from_cards(a) + from_cards(b)
    assert counts(both) == total
    assert from_cards(b) in both
    assert both - from_cards(b) == from_cards(a)


@given(multisets, multisets)
def test_removing_what_is_not_there_is_refused(a, b):
    if Counter(b) - Counter(a):
        with pytest.raises(ValueError):
            from_cards(a) - from_cards(b)
    else:
        assert counts(from_cards(a) - from_cards(b)) == Counter(a) - Counter(b)


def test_count_of_a_card():
    hand = parse_multi("5H 5H 7S")
    assert [hand.count(parse_card(c)) for c in ("5H", "7S", "8S")] == [2, 1, 0]
    assert EMPTY.count(0) == 0 and not EMPTY


@given(st.text(max_size=12))
def test_a_two_deck_deal_conserves_every_card(seed):
    hands = deal_multi(seed, DOUBLE_DECK, 4)
    assert [len(h) for h in hands] == [27, 27, 27, 27]
    total = EMPTY
    for hand in hands:
        total = total + hand
    assert total == DOUBLE_DECK
    assert deal_multi(seed, DOUBLE_DECK, 4) == hands  # reproducible from the seed
