"""Small Guandan positions for the tests: hands of a few cards at a chosen level."""

from __future__ import annotations

from games.engine.guandan import (
    GUANDAN_CN,
    GuandanEvent,
    GuandanRules,
    Match,
    Move,
    State,
    apply,
    new_game,
    parse_level,
)


def position(
    *hands: str,
    level: str = "2",
    leader: int = 0,
    rules: GuandanRules = GUANDAN_CN,
) -> State:
    """Four hands (card text) at ``level``, team 0 declaring, ``leader`` to lead; no tribute."""
    value = parse_level(level)
    return new_game(rules, list(hands), match=Match((value, 2), declaring=0), leader=leader)


def play(state: State, seat: int, cards: str, as_: str = "") -> tuple[State, list[str]]:
    """``seat`` plays ``cards`` (``as_``: what the wilds stand for); the events' kinds."""
    state, events = apply(state, Move.play(seat, cards, as_))
    return state, kinds(events)


def pass_(state: State, seat: int) -> tuple[State, list[str]]:
    state, events = apply(state, Move.pass_turn(seat))
    return state, kinds(events)


def kinds(events: tuple[GuandanEvent, ...]) -> list[str]:
    return [e.kind for e in events]
