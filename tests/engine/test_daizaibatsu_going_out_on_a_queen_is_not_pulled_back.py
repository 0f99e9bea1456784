"""Rule 12 (seed 004: 「このカードであがる場合、効果は自分には適用されない」): a player who goes
out on a Q is not subject to its effect either way. They give nothing, and nobody gives to
them: the player before them gives to the next player still in after them, so the finisher
stays out with no cards (issue #35 §6)."""

from __future__ import annotations

from games.engine.daizaibatsu import Move, pending
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, hand, play


def issue_example():  # type: ignore[no-untyped-def]
    """Hands 0 QS; 1 3H 5S; 2 3D 6S; 3 3S 7S; pile TC TD; seat 0 leads."""
    return game(["QS", "3H 5S", "3D 6S", "3S 7S"], pile=["TC", "TD"])


def test_the_player_before_the_finisher_gives_to_the_next_player_still_in() -> None:
    state, kinds = play(issue_example(), 0, "QS")
    assert kinds == ["played"]
    assert pending(state) == (
        Decision(1, "give", 1, 2),
        Decision(2, "give", 1, 3),
        Decision(3, "give", 1, 1),
    )


def test_the_finisher_goes_out_first_with_no_cards() -> None:
    state, _ = play(issue_example(), 0, "QS")
    state, _ = decide(state, Move.cards_for(1, "give", "3H"))
    state, _ = decide(state, Move.cards_for(2, "give", "3D"))
    state, kinds = decide(state, Move.cards_for(3, "give", "3S"))
    assert kinds == ["gave", "gave", "gave", "finished"]
    assert state.out == (0,)
    assert state.counts == (0, 2, 2, 2)
    assert hand(state, 0) == []
    assert hand(state, 1) == ["3S", "5S"]
    assert hand(state, 2) == ["3H", "6S"]
    assert hand(state, 3) == ["3D", "7S"]
    assert state.turn == 1


def test_in_reverse_direction_the_next_player_after_the_finisher_receives() -> None:
    # Seat 1 reverses with a 9; seat 0 then goes out on a Q: play runs 0 → 3 → 2 → 1, so
    # seat 1 (the player before seat 0) gives to seat 3.
    state = game(["QS", "9H 3H 5S", "3D 6S", "3S 7S"], leader=1, pile=["TC", "TD"])
    state, _ = play(state, 1, "9H")
    state, kinds = play(state, 0, "QS")
    assert kinds == ["played"]
    assert pending(state) == (
        Decision(1, "give", 1, 3),
        Decision(2, "give", 1, 1),
        Decision(3, "give", 1, 2),
    )


def test_stairs_ending_on_a_queen_finish_the_same_way() -> None:
    # 10 (no effect when finishing), J (11-back), Q: the finisher neither gives nor receives.
    state = game(["TS JS QS", "3H 5H", "3D 6D", "3C 7C"], pile=["TC", "TD"])
    state, _ = play(state, 0, "TS JS QS")
    assert [(d.seat, d.to) for d in pending(state)] == [(1, 2), (2, 3), (3, 1)]
    for seat, card in ((1, "3H"), (2, "3D"), (3, "3C")):
        state, kinds = decide(state, Move.cards_for(seat, "give", card))
    assert "finished" in kinds
    assert state.out == (0,)
    assert state.counts[0] == 0


def test_a_player_who_keeps_cards_still_gives_and_receives() -> None:
    state = game(["QS 4C", "3H 5S", "3D 6S", "3S 7S"], pile=["TC", "TD"])
    state, _ = play(state, 0, "QS")
    assert [(d.seat, d.to) for d in pending(state)] == [(0, 1), (1, 2), (2, 3), (3, 0)]
