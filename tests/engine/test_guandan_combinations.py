"""Guandan rule 5: the ordinary combinations, compared within their kind (GD-T02, T06, T09,
T10, T11; E5–E7)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.guandan import Combo, classify
from games.engine.multideck import parse_multi

from .guandan_helpers import play, position


def read(cards: str, level: int = 2) -> Combo | None:
    return classify(list(parse_multi(cards)), level)


def test_a_level_card_stands_in_its_natural_place_in_a_straight() -> None:
    # GD-T02
    assert read("5S 6H 7D 8C 9S", 7) == Combo("straight", 5, 5)
    assert read("6S 8H 9D TC JS", 7) is None


def test_straights_are_exactly_five_with_the_ace_high_or_low_and_no_wrap() -> None:
    assert read("AS 2H 3D 4C 5S") == Combo("straight", 1, 5)
    assert read("TS JH QD KC AS") == Combo("straight", 10, 5)
    assert read("QS KH AD 2C 3S") is None
    assert read("3S 4H 5D 6C 7S 8S") is None
    assert read("3S 4H 5D 6C") is None


def test_a_tie_never_beats() -> None:
    # GD-T06
    state = position("9S TH JD QC KS 3D", "9D TC JS QH KD 4D", "3C 3H", "4C 4H")
    state, _ = play(state, 0, "9S TH JD QC KS")
    with pytest.raises(IllegalMove) as error:
        play(state, 1, "9D TC JS QH KD")
    assert error.value.code == "not_stronger"


def test_a_full_house_compares_its_triple_only() -> None:
    # GD-T09: at level 5, 555 44 beats AAA 33; KKK AA does not.
    state = position("AS AH AD 3S 3H 6C", "5S 5C 5D 4S 4H 6D", "9C 9D", "8C 8D", level="5")
    state, _ = play(state, 0, "AS AH AD 3S 3H")
    state, events = play(state, 1, "5S 5C 5D 4S 4H")
    assert events == ["played"]
    assert read("KS KH KD AC AD", 5) == Combo("full_house", 13, 5)
    assert not Combo("full_house", 13, 5).beats(Combo("full_house", 14, 5))
    assert read("5S 5C 5D 4S 4H", 5) == Combo("full_house", 15, 5)


def test_a_king_full_house_does_not_beat_aces() -> None:
    state = position("AS AH AD 3S 3H 6C", "KS KH KD AC AD 6D", "9C 9D", "8C 8D", level="5")
    state, _ = play(state, 0, "AS AH AD 3S 3H")
    with pytest.raises(IllegalMove) as error:
        play(state, 1, "KS KH KD AC AD")
    assert error.value.code == "not_stronger"


def test_tubes_run_from_aces_low_to_aces_high_without_wrapping() -> None:
    # GD-T10
    assert read("AS AH 2S 2D 3C 3D") == Combo("tube", 1, 6)
    assert read("QS QH KS KD AC AD") == Combo("tube", 12, 6)
    assert read("KS KH AS AD 2C 2D") is None


def test_plates_run_from_aces_low_to_aces_high() -> None:
    assert read("AS AH AD 2S 2D 2C") == Combo("plate", 1, 6)
    assert read("KS KH KD AS AD AC") == Combo("plate", 13, 6)
    assert read("KS KH KD 2S 2D 2C") is None


def test_the_two_jokers_are_no_pair_unless_they_are_the_same() -> None:
    # GD-T11
    assert read("SJ BJ") is None
    assert read("SJ SJ") == Combo("pair", 16, 2)
    assert read("BJ BJ") == Combo("pair", 17, 2)
    state = position("SJ BJ 3S", "4S 4D", "5S 5D", "6S 6D")
    with pytest.raises(IllegalMove) as error:
        play(state, 0, "SJ BJ")
    assert error.value.code == "invalid_combination"


def test_there_is_no_joker_triple() -> None:
    assert read("SJ SJ BJ") is None


def test_a_joker_pair_can_be_a_full_house_pair() -> None:
    # E5
    assert read("9S 9H 9D SJ SJ") == Combo("full_house", 9, 5)
    assert read("9S 9H 9D SJ BJ") is None


def test_five_suited_consecutive_cards_are_always_a_straight_flush() -> None:
    # E6
    assert read("3S 4S 5S 6S 7S") == Combo("straight_flush", 3, 5)


def test_five_equal_cards_are_a_bomb_not_a_full_house() -> None:
    # E7
    assert read("9S 9S 9H 9H 9D") == Combo("bomb", 9, 5)


def test_a_different_kind_cannot_follow() -> None:
    state = position("3S 3H 4S", "5S 6D 7H 8C 9S 4D", "9C 9D", "8D 8H")
    state, _ = play(state, 0, "3S 3H")
    with pytest.raises(IllegalMove) as error:
        play(state, 1, "5S 6D 7H 8C 9S")
    assert error.value.code == "wrong_kind"
