"""Shared set-ups for the 大財閥 tests: the preset with the two organiser switches decided,
small hands, and a pile to draw from."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.daizaibatsu import (
    PILE_NOT_GIVEN,
    Move,
    State,
    apply,
    new_game,
)
from games.engine.daizaibatsu_combos import names, parse
from games.engine.daizaibatsu_rules import DAIZAIBATSU, DaizaibatsuRules


def rules(**overrides: object) -> DaizaibatsuRules:
    """The preset with the organiser's two switches off (and any other overrides)."""
    settings: dict[str, object] = {"finish_kill_card": "off", "zaibatsu_revolution": "off"}
    settings.update(overrides)
    return DAIZAIBATSU.with_overrides(**settings)


def game(
    hands: Sequence[str | None],
    *,
    pile: Sequence[str] | str | None = "rest",
    leader: int = 0,
    counts: Sequence[int] | None = None,
    **overrides: object,
) -> State:
    """A game from small hands; the pile is the rest of the 108 cards in card order (top:
    the lowest card not dealt) unless given."""
    return new_game(
        rules(**overrides),
        [None if h is None else h for h in hands],
        pile=PILE_NOT_GIVEN if pile == "rest" else (None if pile is None else list(pile)),
        leader=leader,
        counts=counts,
    )


def play(state: State, seat: int, cards: str, as_: str = "") -> tuple[State, list[str]]:
    """Play and return the new state and the kinds of the events."""
    state, events = apply(state, Move.play(seat, cards, as_))
    return state, [e.kind for e in events]


def pass_(state: State, seat: int) -> tuple[State, list[str]]:
    state, events = apply(state, Move.pass_turn(seat))
    return state, [e.kind for e in events]


def decide(state: State, move: Move) -> tuple[State, list[str]]:
    state, events = apply(state, move)
    return state, [e.kind for e in events]


def hand(state: State, seat: int) -> list[str]:
    held = state.hands[seat]
    assert held is not None
    return names(held)


def cards(text: str) -> list[str]:
    return names(parse(text))
