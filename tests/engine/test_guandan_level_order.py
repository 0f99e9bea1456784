"""Guandan rule 3: single cards rank 2 … A, then the level rank, then 小王 and 大王 (GD-T01)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.guandan import Combo, classify, strength
from games.engine.multideck import parse_multi

from .guandan_helpers import play, position


def read(cards: str, level: int) -> Combo | None:
    return classify(list(parse_multi(cards)), level)


def test_at_level_7_a_seven_beats_an_ace_and_the_jokers_beat_the_seven() -> None:
    # GD-T01
    state = position("AS 3C", "7D 3C", "SJ 3D", "BJ 4D", level="7")
    state, _ = play(state, 0, "AS")
    state, events = play(state, 1, "7D")
    assert events == ["played"]
    state, _ = play(state, 2, "SJ")
    state, events = play(state, 3, "BJ")
    assert events == ["played"]


def test_the_level_rank_is_skipped_in_its_natural_place() -> None:
    assert strength(parse_multi("7D").one.bit_length() - 1, 7) == 15
    assert read("8S", 7) == Combo("single", 8, 1)
    assert read("AS", 7) == Combo("single", 14, 1)
    assert read("2S", 7) == Combo("single", 2, 1)
    assert read("SJ", 7) == Combo("single", 16, 1)
    assert read("BJ", 7) == Combo("single", 17, 1)


def test_an_ace_does_not_beat_the_level_card() -> None:
    state = position("7D 3C", "AS 3C", "4S 4D", "5S 5D", level="7")
    state, _ = play(state, 0, "7D")
    with pytest.raises(IllegalMove) as error:
        play(state, 1, "AS")
    assert error.value.code == "not_stronger"


def test_a_two_is_the_lowest_card_when_it_is_not_the_level() -> None:
    assert read("2S", 5) == Combo("single", 2, 1)
    assert read("3S", 5).beats(read("2S", 5))  # type: ignore[union-attr,arg-type]
