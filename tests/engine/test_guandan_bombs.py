"""Guandan rule 6: bombs beat every ordinary play; among themselves 4 < 5 of a kind <
straight flush < 6 < … < 10 of a kind < the four jokers (GD-T05, GD-T17)."""

from __future__ import annotations

import itertools

import pytest

from games.engine.errors import IllegalMove
from games.engine.guandan import Combo, classify
from games.engine.multideck import parse_multi

from .guandan_helpers import pass_, play, position


def read(cards: str, level: int = 2, as_: str = "") -> Combo | None:
    extra = list(parse_multi(as_)) if as_ else []
    return classify(list(parse_multi(cards)) + extra, level)


def test_the_ladder() -> None:
    ladder = [
        read("3S 3H 3D 3C"),
        read("AS AH AD AC"),
        read("3S 3H 3D 3C 3S"),
        read("AS 2S 3S 4S 5S"),
        read("TS JS QS KS AS"),
        read("3S 3H 3D 3C 3S 3H"),
        read("3S 3H 3D 3C 3S 3H 3D"),
        read("3S 3H 3D 3C 3S 3H 3D 3C"),
        read("9S 9H 9D 9C 9S 9H 9D 9C", as_="9S"),
        read("9S 9H 9D 9C 9S 9H 9D 9C", as_="9S 9D"),
        read("SJ SJ BJ BJ"),
    ]
    assert all(c is not None and c.is_bomb for c in ladder)
    for weaker, stronger in itertools.pairwise(ladder):
        assert stronger.beats(weaker), (weaker, stronger)  # type: ignore[union-attr,arg-type]
        assert not weaker.beats(stronger)  # type: ignore[union-attr,arg-type]


def test_a_level_bomb_beats_an_ace_bomb_of_the_same_size() -> None:
    assert read("9S 9H 9D 9C", 9).beats(read("AS AH AD AC", 9))  # type: ignore[union-attr,arg-type]


def test_a_straight_flush_from_ace_low_is_the_lowest() -> None:
    assert read("AS 2S 3S 4S 5S") == Combo("straight_flush", 1, 5)
    assert read("2H 3H 4H 5H 6H", 9).beats(read("AS 2S 3S 4S 5S", 9))  # type: ignore[union-attr,arg-type]


def test_bomb_ladder_on_five_level_cards() -> None:
    # GD-T05: on five 9s at level 9, a straight flush, then six 3s, then the four jokers.
    state = position(
        "9S 9S 9D 9C 9C 4D",
        "AC 2C 3C 4C 5C 6D",
        "3S 3H 3D 3C 3S 3H 7D",
        "SJ SJ BJ BJ 8D",
        level="9",
    )
    state, _ = play(state, 0, "9S 9S 9D 9C 9C")
    state, events = play(state, 1, "AC 2C 3C 4C 5C")
    assert events == ["played"]
    state, events = play(state, 2, "3S 3H 3D 3C 3S 3H")
    assert events == ["played"]
    state, events = play(state, 3, "SJ SJ BJ BJ")
    assert events == ["played"]


def test_a_bomb_beats_an_ordinary_play_and_only_a_higher_bomb_beats_a_bomb() -> None:
    state = position("KS KH 3D", "4S 4H 4D 4C 6D", "5S 5H 5D 5C 7D", "8C 8D")
    state, _ = play(state, 0, "KS KH")
    state, events = play(state, 1, "4S 4H 4D 4C")
    assert events == ["played"]
    state, _ = pass_(state, 2)
    state = position("KS KH 3D", "5S 5H 5D 5C 6D", "4S 4H 4D 4C 7D", "8C 8D")
    state, _ = play(state, 0, "KS KH")
    state, _ = play(state, 1, "5S 5H 5D 5C")
    with pytest.raises(IllegalMove) as error:
        play(state, 2, "4S 4H 4D 4C")
    assert error.value.code == "not_stronger"


def test_ten_of_a_kind_with_both_wilds_beats_nine_and_loses_to_the_jokers() -> None:
    # GD-T17: at level 5, eight natural 9s and both wild 5♥ are ten 9s.
    ten = read("9S 9S 9H 9H 9D 9D 9C 9C", 5, as_="9S 9H")
    nine = read("8S 8S 8H 8H 8D 8D 8C 8C", 5, as_="8S")
    assert ten == Combo("bomb", 9, 10)
    assert ten.beats(nine)  # type: ignore[union-attr,arg-type]
    assert read("SJ SJ BJ BJ").beats(ten)  # type: ignore[union-attr,arg-type]
    state = position("9S 9S 9H 9H 9D 9D 9C 9C 5H 5H 3D", "SJ SJ BJ BJ 4D", "6C", "7C", level="5")
    state, events = play(state, 0, "9S 9S 9H 9H 9D 9D 9C 9C 5H 5H")
    assert events == ["played"]
    state, events = play(state, 1, "SJ SJ BJ BJ")
    assert events == ["played"]


def test_a_level_bomb_has_at_most_eight_cards() -> None:
    # Six natural level cards and the two wilds.
    assert read("5S 5S 5D 5D 5C 5C 5H 5H", 5) == Combo("bomb", 15, 8)
    state = position("5S 5S 5D 5D 5C 5C 5H 5H 3D", "4D", "6C", "7C", level="5")
    state, events = play(state, 0, "5S 5S 5D 5D 5C 5C 5H 5H")
    assert events == ["played"]
