"""大財閥 properties: the 108 cards are conserved at every step, no input crashes the engine,
replays are deterministic, no state short of the end is stuck, and random games end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.daizaibatsu import (
    DAIZAIBATSU_FAMILY,
    PHASE_OVER,
    State,
    apply,
    legal_moves,
    move_from_json,
    new_game,
    pending,
    to_move,
)
from games.engine.daizaibatsu_combos import DECK, add, from_list
from games.engine.errors import IllegalMove, RecordError
from games.engine.multideck import Cards
from games.engine.record import export_record, replay

from .daizaibatsu_helpers import rules

MOVE_CAP = 3000  # far above any game seen; reaching it means a game that does not end


def random_game(seed: int, **overrides: object) -> list[State]:
    """Every state of a game dealt from ``seed`` and played by random legal moves."""
    rng = random.Random(seed)
    state = new_game(rules(**overrides), seed=f"properties/{seed}")
    states = [state]
    while state.phase != PHASE_OVER:
        moves = list(legal_moves(state))
        assert moves, f"stuck: {state}"
        state, _ = apply(state, rng.choice(moves))
        states.append(state)
        assert len(states) < MOVE_CAP, "the game does not end"
    return states


def everything(state: State) -> Cards:
    """Hands, pile, table, flowed, discarded and destroyed cards together."""
    total = add(add(add(state.flowed, state.discarded), state.destroyed), state.table_cards)
    for hand in state.hands:
        assert hand is not None
        total = add(total, hand)
    assert state.pile is not None
    return add(total, from_list(state.pile))


KILL = st.sampled_from(["off", "7S", "JK"])


@settings(max_examples=25)
@given(st.integers(0, 10**6), KILL, st.sampled_from([3, 4, 5, 6]))
def test_cards_are_conserved_and_counts_match_hands(seed: int, kill: str, seats: int) -> None:
    for state in random_game(seed, finish_kill_card=kill, seats=seats):
        assert everything(state) == DECK
        assert state.counts == tuple(len(h) for h in state.hands if h is not None)


@settings(max_examples=25)
@given(st.integers(0, 10**6))
def test_no_deadlock_every_state_short_of_the_end_has_a_move(seed: int) -> None:
    for state in random_game(seed, finish_kill_card="7S"):
        if state.phase == PHASE_OVER:
            assert to_move(state) == () and not list(legal_moves(state))
        else:
            assert list(legal_moves(state)) and to_move(state)
            assert {d.seat for d in pending(state)} <= set(to_move(state))


@settings(max_examples=15)
@given(st.integers(0, 10**6))
def test_replay_is_deterministic(seed: int) -> None:
    rng = random.Random(seed)
    start = new_game(rules(), seed=f"replay/{seed}")
    state, moves = start, []
    while state.phase != PHASE_OVER:
        move = rng.choice(list(legal_moves(state)))
        state, _ = apply(state, move)
        moves.append(move)
    record = export_record(start, moves)
    first, second = replay(record), replay(record)
    assert first.state == second.state == state
    assert first.to_dict() == second.to_dict()


NAMES = st.sampled_from(
    [
        "3S",
        "3H",
        "4D",
        "5C",
        "6S",
        "7H",
        "8D",
        "9C",
        "TS",
        "JH",
        "QD",
        "KC",
        "AS",
        "2H",
        "JK",
        "ZZ",
        7,
    ]
)
MOVE_OBJECTS = st.fixed_dictionaries(
    {"seat": st.one_of(st.integers(-1, 6), st.text(max_size=2))},
    optional={
        "play": st.lists(NAMES, max_size=6),
        "pass": st.one_of(st.booleans(), st.none()),
        "as": st.lists(NAMES, max_size=3),
        "respond": st.booleans(),
        "choice": st.one_of(
            st.sampled_from(["double_back", "accept", "x"]),
            st.fixed_dictionaries({"target": st.integers(-1, 6)}),
        ),
        "give": st.lists(NAMES, max_size=3),
        "discard": st.lists(NAMES, max_size=3),
        "destroy": st.lists(NAMES, max_size=3),
        "take": st.lists(NAMES, max_size=3),
        "drew": st.lists(NAMES, max_size=3),
    },
)


@settings(max_examples=200)
@given(st.integers(0, 50), st.integers(0, 10**4), st.lists(MOVE_OBJECTS, max_size=8))
def test_no_input_crashes_the_engine(seed: int, at: int, objects: list[object]) -> None:
    states = random_game(seed % 5)
    state = states[at % len(states)]
    for obj in objects:
        try:
            move = move_from_json(obj, "m", 4)
            after, _ = apply(state, move)
        except (IllegalMove, RecordError):
            continue
        assert DAIZAIBATSU_FAMILY.is_over(after) or to_move(after)
        state = after


@settings(max_examples=20)
@given(st.integers(0, 10**6), st.sampled_from([3, 4, 5, 6]), st.integers(5, 18))
def test_random_games_from_a_deal_end(seed: int, seats: int, hand_size: int) -> None:
    states = random_game(seed, seats=seats, hand_size=hand_size)
    assert states[-1].phase == PHASE_OVER
