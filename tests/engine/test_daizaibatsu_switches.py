"""The readings of the ambiguities are switches: each one, turned away from its default, changes
the game as its description says (F2, F6, F7, F12, F13)."""

from __future__ import annotations

from games.engine.daizaibatsu import Move, pending
from games.engine.daizaibatsu_rules import SWITCHES
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, play


def test_every_switch_is_documented_with_its_values() -> None:
    for name, (values, description) in SWITCHES.items():
        assert values and description, name


def test_f6_several_nines_reverse_once_per_nine() -> None:
    state = game(["9S 9H 3C", "4D", "4H", "4C"], reverse_per_card=True)
    state, _ = play(state, 0, "9S 9H")
    assert state.direction == 1 and state.turn == 1


def test_f6_by_default_several_nines_reverse_once() -> None:
    state = game(["9S 9H 3C", "4D", "4H", "4C"])
    state, _ = play(state, 0, "9S 9H")
    assert state.direction == -1 and state.turn == 3


def test_f7_off_three_nines_wait_like_a_four_card_revolution() -> None:
    state = game(["9S 9H 9D 3C", "3D 4D", "5H 3H", "3S 4S"], three_nines_at_once=False)
    state, _ = play(state, 0, "9S 9H 9D")
    state, kinds = decide(state, Move.choose_target(0, 1))
    assert "revolution_pending" in kinds and not state.revolution


def test_f12_off_stairs_effects_run_from_three_to_two_even_in_a_revolution() -> None:
    hands = ["4D 5D 6D 3C 3H", "3S 9C", "8H 8C", "TS TC"]
    state = game(hands, stairs_effects_in_order=False)._replace(revolution=True)
    state, kinds = play(state, 0, "4D 5D 6D")
    assert kinds == ["played", "drew", "hand_opened", "skipped"]
    state = game(hands)._replace(revolution=True)
    state, kinds = play(state, 0, "4D 5D 6D")
    assert kinds == ["played", "hand_opened", "drew", "skipped"]


def test_f13_a_factor_of_one_sends_back_the_same_amount() -> None:
    state = game(["2S 3C", "5D JK", "7H", "9S"], double_back_factor=1)
    state, _ = play(state, 0, "2S")
    state, _ = decide(state, Move.choose_target(0, 1))
    state, _ = decide(state, Move.answer(1, True))
    assert state.counts[0] == 1 + 2


def test_f2_without_renewals_the_first_exhaustion_ends_the_game() -> None:
    state = game(["3S 3H 3C 4S 9S", "6H 3D", "5H 9C", "7S 9D"], pile=[], pile_renewals=0)
    state, _ = play(state, 0, "3S 3H 3C")
    state, kinds = play(state, 0, "4S")
    assert kinds == ["played", "forced_end", "game_over"]


def test_the_target_decision_names_what_is_drawn() -> None:
    state = game(["2S 2H 2D 3C", "5D", "7H", "9S"])
    state, _ = play(state, 0, "2S 2H 2D")
    assert pending(state) == (Decision(0, "target", 6, None),)
