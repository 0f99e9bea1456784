"""F4: going out with 3s only during a revolution, 8s only, 2s only in normal order, or jokers
only is illegal (``forbidden_finish``); 2s may finish during a revolution (DZ-T06)."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import Move, pending
from games.engine.errors import IllegalMove
from games.engine.family import Decision

from .daizaibatsu_helpers import decide, game, pass_, play


def refused(state, seat: int, cards: str, as_: str = "") -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as caught:
        play(state, seat, cards, as_)
    return caught.value.code


def test_two_twos_cannot_finish_in_normal_order() -> None:
    state = game(["3D 4C", "5D 6C", "7D 8C", "2S 2H"], leader=3)
    assert refused(state, 3, "2S 2H") == "forbidden_finish"


def test_two_twos_finish_during_a_revolution_and_name_who_draws_four() -> None:
    state = game(["3D 4C", "5D 6C", "7D 8C", "2S 2H"], leader=3)
    state = state._replace(revolution=True)
    state, kinds = play(state, 3, "2S 2H")
    assert pending(state) == (Decision(3, "target", 4, None),)
    state, kinds = decide(state, Move.choose_target(3, 1))
    assert state.counts[1] == 2 + 4
    assert "finished" in kinds


def test_eights_only_cannot_finish() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "8S"], leader=3)
    assert refused(state, 3, "8S") == "forbidden_finish"


def test_jokers_only_cannot_finish() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "JK"], leader=3)
    assert refused(state, 3, "JK") == "forbidden_finish"


def test_threes_only_cannot_finish_during_a_revolution() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "3S"], leader=3)
    state = state._replace(revolution=True)
    assert refused(state, 3, "3S") == "forbidden_finish"


def test_threes_may_finish_in_normal_order() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "3S"], leader=3)
    state, kinds = play(state, 3, "3S")
    assert kinds == ["played", "finished"]


def test_a_leader_whose_every_play_is_forbidden_may_pass() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "8S"], leader=3)
    state, kinds = pass_(state, 3)
    assert kinds == ["passed"] and state.turn == 0


def test_an_ace_with_nothing_to_take_back_cannot_finish() -> None:
    state = game(["3D 4C", "5D 6C", "7D 9C", "AS"], leader=3)
    assert refused(state, 3, "AS") == "forbidden_finish"
