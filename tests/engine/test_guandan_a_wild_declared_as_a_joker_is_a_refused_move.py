"""Guandan rule 4 (REFERENCE §5.1: 逢人配, the heart level card, may stand for any card except
the jokers): a play whose ``as`` declares a wild as ``SJ`` (小王) or ``BJ`` (大王) is one refused
move, ``bad_wild_declaration``, never a record error; and ``SJ`` / ``BJ`` are the jokers
wherever a card is written, never read as a number card such as ♠J (issue #35 §6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import RANKS, SUITS, parse_card
from games.engine.errors import IllegalMove, InvalidNotation
from games.engine.guandan import (
    GUANDAN_CN,
    Match,
    Move,
    apply,
    move_from_json,
    move_to_json,
    new_game,
    wild_card,
)
from games.engine.multideck import (
    BIG_JOKER,
    SMALL_JOKER,
    Cards,
    from_cards,
    multi_card_name,
    multi_names,
    parse_multi_card,
)
from games.engine.record import load_record, replay

from .guandan_helpers import position

NUMBER_CODES = [rank + suit for rank in RANKS for suit in SUITS]
JOKER_CODES = ["SJ", "BJ", "sj", "bj", "小王", "大王"]


@pytest.mark.parametrize("joker", ["SJ", "BJ"])
def test_declaring_a_wild_as_a_joker_is_refused_and_changes_nothing(joker: str) -> None:
    state = position("JS JD 2H 9D", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        apply(state, Move.play(0, "JS JD 2H", joker))
    assert error.value.code == "bad_wild_declaration"
    assert error.value.message_en and error.value.message_ja
    assert multi_names(state.hands[0]) == ["9D", "JS", "JD", "2H"]
    assert state.table is None


def test_sj_in_a_declaration_is_the_small_joker_not_the_jack_of_spades() -> None:
    move = move_from_json({"seat": 0, "play": ["JS", "JD", "2H"], "as": ["SJ"]}, "moves[0]")
    assert move.wild_as == (SMALL_JOKER,)
    assert move_to_json(move)["as"] == ["SJ"]


def test_a_record_with_a_joker_declaration_replays_with_the_move_refused() -> None:
    record = {
        "format": "kakumei-record/1",
        "rules": "guandan-cn@1",
        "seats": 4,
        "hands": [["JS", "JD", "2H", "9D"], ["8C"], ["8D"], ["8S"]],
        "leader": 0,
        "moves": [
            {"seat": 0, "play": ["JS", "JD", "2H"], "as": ["BJ"]},
            {"seat": 0, "play": ["JS", "JD", "2H"], "as": ["JH"]},
        ],
    }
    out = replay(load_record(record))
    verdicts = [(v.ok, v.error.code if v.error else None) for v in out.moves]
    assert verdicts == [(False, "bad_wild_declaration"), (True, None)]


def test_joker_codes_never_collide_with_a_card_code() -> None:
    assert parse_multi_card("SJ") == SMALL_JOKER
    assert parse_multi_card("BJ") == BIG_JOKER
    assert {multi_card_name(parse_multi_card(c)) for c in NUMBER_CODES}.isdisjoint({"SJ", "BJ"})
    for code in ("SJ", "BJ"):
        with pytest.raises(InvalidNotation):
            parse_card(code)  # the one-deck notation: never ♠J, never a card


@settings(max_examples=200, deadline=None)
@given(
    level=st.integers(2, 14),
    naturals=st.lists(st.sampled_from(NUMBER_CODES), min_size=0, max_size=4),
    wilds=st.integers(1, 2),
    declared=st.lists(st.sampled_from(NUMBER_CODES + JOKER_CODES), min_size=0, max_size=1),
    joker=st.sampled_from(JOKER_CODES),
    position_of_joker=st.integers(0, 1),
)
def test_no_declaration_of_a_joker_is_ever_accepted(
    level: int,
    naturals: list[str],
    wilds: int,
    declared: list[str],
    joker: str,
    position_of_joker: int,
) -> None:
    wild = multi_card_name(wild_card(level))
    cards = [c for c in naturals if c != wild][:4]
    cards = list(dict.fromkeys(cards)) + [wild] * wilds
    as_ = declared[: wilds - 1]
    as_.insert(min(position_of_joker, len(as_)), joker)
    # Reading the move object never fails on a joker code in `as`.
    move = move_from_json({"seat": 0, "play": cards, "as": as_}, "moves[0]")
    assert any(t >= SMALL_JOKER for t in move.wild_as)
    hands: list[Cards | str] = [
        from_cards(parse_multi_card(c) for c in [*cards, "9D"]),
        "8C",
        "8D",
        "8S",
    ]
    state = new_game(GUANDAN_CN, hands, match=Match((level, 2), declaring=0), leader=0)
    with pytest.raises(IllegalMove) as error:
        apply(state, move)
    assert error.value.code == "bad_wild_declaration"
