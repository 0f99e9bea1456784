"""Property: a random Guandan match (random legal moves, hand after hand until a team wins
at A or a bound), exported as one match record, replays to the same states and outcomes."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.guandan import (
    ACE,
    GUANDAN,
    GUANDAN_CN,
    GUANDAN_PAGAT,
    GuandanRules,
    Match,
    Move,
    State,
    apply,
    deal_hands,
    hand_result,
    new_game,
)
from games.engine.record import export_match_record, replay_match

HAND_BOUND = 12


def play_out(state: State, rng: random.Random) -> tuple[State, list[Move]]:
    """Random legal moves, tribute included, until the hand is over."""
    moves = []
    while not GUANDAN.is_over(state):
        move = rng.choice(list(GUANDAN.legal_moves(state)))
        state, _ = apply(state, move)
        moves.append(move)
    return state, moves


def random_match(
    seed: int, rules: GuandanRules, first: Match
) -> list[tuple[State, list[Move], State]]:
    """Each hand's start, moves and end, until the match is won at A or HAND_BOUND hands."""
    rng = random.Random(seed)
    hands = []
    match, leader = first, seed % 4
    for number in range(HAND_BOUND):
        dealt = list(deal_hands(f"{seed}/{number}", rules))
        start = new_game(rules, dealt, match=match, leader=None if match.previous else leader)
        end, moves = play_out(start, rng)
        hands.append((start, moves, end))
        result = hand_result(end)
        if result.match_won:
            break
        match = result.match
    return hands


@settings(max_examples=10, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([GUANDAN_CN, GUANDAN_PAGAT]),
    st.sampled_from([(2, 2), (13, 12), (ACE, ACE), (ACE, 9)]),
    st.sampled_from([0, 1]),
)
def test_a_random_match_replays_from_its_match_record(
    seed: int, rules: GuandanRules, levels: tuple[int, int], declaring: int
) -> None:
    # Starting near A (a match taken up part way) reaches wins, failures and demotions.
    first = Match() if levels == (2, 2) else Match(levels, declaring=declaring)
    played = random_match(seed, rules, first)
    record = json.loads(json.dumps(export_match_record((s, m) for s, m, _ in played)))

    replayed = replay_match(record)

    assert len(replayed.games) == len(played)
    for game, (start, moves, end) in zip(replayed.games, played, strict=True):
        assert all(v.ok for v in game.moves)
        assert len(game.moves) == len(moves)
        assert game.record.initial_state() == start
        assert game.state == end
        assert GUANDAN.outcome(game.state) == GUANDAN.outcome(end)
    last = hand_result(played[-1][2])
    output = replayed.to_dict()
    assert output["finished"] is last.match_won
    assert output["winner"] == (last.winner if last.match_won else None)
