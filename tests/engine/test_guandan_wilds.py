"""Guandan rule 4: the two heart level cards are wild (逢人配). A play that contains one says
what it stands for (``as``) wherever the cards can be read more than one way (E8)."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.guandan import Combo, Move, apply, readings, wild_card
from games.engine.multideck import parse_multi

from .guandan_helpers import play, position


def test_a_wild_completes_a_straight() -> None:
    # GD-T03: at level 2, 3S 4H 2H 6D 7C with the 2♥ as 5D is a straight to 7.
    state = position("3S 4H 2H 6D 7C 9D", "8C", "8D", "8S")
    state, events = play(state, 0, "3S 4H 2H 6D 7C", as_="5D")
    assert events == ["played"]
    assert state.table == Combo("straight", 3, 5)


def test_a_wild_completes_a_straight_flush() -> None:
    # GD-T04
    state = position("3S 4S 5S 6S 2H 9D", "8C", "8D", "8S")
    state, _ = play(state, 0, "3S 4S 5S 6S 2H", as_="7S")
    assert state.table == Combo("straight_flush", 3, 5)


def test_a_selection_with_several_readings_needs_the_declaration() -> None:
    # 3S 4S 5S 6S + wild: a straight flush 3–7 or 2–6, or plain straights.
    found = readings(parse_multi("3S 4S 5S 6S 2H"), 2)
    assert Combo("straight_flush", 3, 5) in found
    assert Combo("straight", 3, 5) in found
    state = position("3S 4S 5S 6S 2H 9D", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        play(state, 0, "3S 4S 5S 6S 2H")
    assert error.value.code == "choice_required"


def test_one_reading_needs_no_declaration() -> None:
    state = position("5S 5D 2H 9D", "8C", "8D", "8S")
    state, _ = play(state, 0, "5S 5D 2H")
    assert state.table == Combo("triple", 5, 3)


def test_following_only_the_readings_that_beat_the_table_count() -> None:
    # 7S 8S 9S TS + wild on a straight to 7: every plain reading (to J, to T) beats it, so the
    # player still has to say which; a declared straight flush is a bomb.
    state = position("3D 4C 5H 6S 7D 9D", "7S 8S 9S TS 2H KD", "8D", "8C")
    state, _ = play(state, 0, "3D 4C 5H 6S 7D")
    with pytest.raises(IllegalMove) as error:
        play(state, 1, "7S 8S 9S TS 2H")
    assert error.value.code == "choice_required"
    state, _ = play(state, 1, "7S 8S 9S TS 2H", as_="JS")
    assert state.table == Combo("straight_flush", 7, 5)


def test_a_declaration_that_does_not_fit_is_refused() -> None:
    state = position("3S 4H 2H 6D 7C 9D", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        play(state, 0, "3S 4H 2H 6D 7C", as_="9D")
    assert error.value.code == "bad_wild_declaration"


def test_a_wild_never_stands_for_a_joker() -> None:
    # A refused move, not a notation error: test_guandan_a_wild_declared_as_a_joker_….
    state = position("SJ SJ BJ 2H 5C", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        apply(state, Move.play(0, "SJ SJ BJ 2H", "BJ"))
    assert error.value.code == "bad_wild_declaration"
    assert Combo("joker_bomb", 0, 4) not in readings(parse_multi("SJ SJ BJ 2H"), 2)


def test_alone_a_wild_is_a_level_card_and_two_are_a_pair_of_level_cards() -> None:
    # GD-T16: at level 2, 2♥ 2♥ beats a pair of aces and loses to 小王 小王.
    assert readings(parse_multi("2H 2H"), 2) == {Combo("pair", 15, 2): (wild_card(2),) * 2}
    state = position("AS AD 3C", "2H 2H 4C", "SJ SJ 5C", "6C")
    state, _ = play(state, 0, "AS AD")
    state, events = play(state, 1, "2H 2H")
    assert events == ["played"]
    state, events = play(state, 2, "SJ SJ")
    assert events == ["played"]
    state = position("2H 9D", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        play(state, 0, "2H", as_="AS")
    assert error.value.code == "bad_wild_declaration"


def test_a_wild_may_stand_for_itself() -> None:
    # Hearts A-2-3-4-5 at level 2: the 2♥ is its own card in a straight flush.
    state = position("AH 2H 3H 4H 5H 9D", "8C", "8D", "8S")
    state, _ = play(state, 0, "AH 2H 3H 4H 5H", as_="2H")
    assert state.table == Combo("straight_flush", 1, 5)


def test_only_the_heart_level_cards_are_wild() -> None:
    # At level 2 the 2♠ is an ordinary level card.
    assert readings(parse_multi("2S 5S 5D"), 2) == {}
    assert Combo("triple", 5, 3) in readings(parse_multi("2H 5S 5D"), 2)


def test_a_move_declares_one_card_per_wild() -> None:
    state = position("5S 5D 2H 9D", "8C", "8D", "8S")
    with pytest.raises(IllegalMove) as error:
        apply(state, Move.play(0, "5S 5D 2H", "5H 5C"))
    assert error.value.code == "bad_wild_declaration"
