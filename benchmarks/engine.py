"""Rules-engine benchmark: random JDF games, legal-move generation and checked validation.

    python benchmarks/engine.py [--games N] [--seconds S] [--seed K]

Every figure is printed with a baseline measured in the same run:

* random games/s (each turn picks uniformly among ``legal_moves`` and applies it with
  the unchecked fast path; also with the checked ``apply``) against the Python floor:
  the same number of turns doing only ``random.choice`` over lists of the same sizes;
* ``legal_moves`` calls/s on a corpus of states from those games, against the naive
  brute force (every subset of the hand up to 6 cards, plus pass, tried with ``apply``
  — the oracle of the tests) on a sample of the same states;
* validations/s: checked ``apply`` of a legal move on the corpus states.

Targets on one core: >= 400 games/s and >= 50k legal-move calls/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (
    JDF,
    PRESETS,
    EngineError,
    Move,
    RuleSet,
    State,
    apply,
    apply_unchecked,
    deal,
    legal_moves,
    new_game,
)


def play_games(
    n: int, seed: int, checked: bool, rules: RuleSet = JDF
) -> tuple[float, int, list[State], list[int]]:
    """Play ``n`` random games; (seconds, turns, sampled states, list sizes per turn)."""
    rng = random.Random(seed)
    states: list[State] = []
    sizes: list[int] = []
    turns = 0
    t0 = time.perf_counter()
    for i in range(n):
        d = deal(seed * 100_003 + i, rules)  # the seeded SHA-256 deal is part of each game
        state = new_game(rules, list(d.hands), blind=d.blind)
        while state.phase != 2:
            moves = list(legal_moves(state))
            move = rng.choice(moves)
            state = apply(state, move)[0] if checked else apply_unchecked(state, move)
            turns += 1
            if turns % 7 == 0:
                states.append(state)
                sizes.append(len(moves))
    return time.perf_counter() - t0, turns, states, sizes


def floor_games(n: int, turns: int, sizes: list[int], seed: int) -> float:
    """The Python floor: ``turns`` iterations doing only list building and random.choice."""
    rng = random.Random(seed)
    pool = [list(range(s)) for s in sizes] or [[0]]
    t0 = time.perf_counter()
    k = len(pool)
    for i in range(turns):
        rng.choice(list(pool[i % k]))
    return time.perf_counter() - t0


def brute_force(state: State) -> int:
    """Naive legal plays: every subset of the hand up to 6 cards, plus pass, via apply."""
    seat = state.turn
    hand = state.hands[seat]
    bits = [1 << c for c in range(54) if hand >> c & 1]
    count = 0
    candidates = [Move(seat, is_pass=True)]
    for size in range(1, min(6, len(bits)) + 1):
        candidates.extend(Move(seat, sum(c)) for c in combinations(bits, size))
    for move in candidates:
        try:
            apply(state, move)
        except EngineError:
            continue
        count += 1
    return count


def timed_loop(fn: object, items: list[State], seconds: float) -> tuple[int, float]:
    assert callable(fn)
    calls = 0
    t0 = time.perf_counter()
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return calls, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=2.0, help="per timed loop")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}, {args.games} games, seed {args.seed}")
    elapsed, turns, states, sizes = play_games(args.games, args.seed, checked=False)
    games_s = args.games / elapsed
    floor = floor_games(args.games, turns, sizes, args.seed)
    floor_s = args.games / floor
    print(f"turns per game                 {turns / args.games:10.1f}")
    print(f"random games/s (fast path)     {games_s:10.0f}   target >= 400")
    c_elapsed, *_ = play_games(args.games, args.seed, checked=True)
    print(f"random games/s (checked apply) {args.games / c_elapsed:10.0f}")
    print(
        f"  baseline: random.choice floor {floor_s:10.0f} games/s"
        f"  -> engine costs {floor_s / games_s:.1f}x the floor"
    )

    print("random games/s per preset (fast path; ratio to jdf in this run, must be >= 0.5):")
    base = 0.0
    for key, rules in PRESETS.items():
        p_elapsed, p_turns, *_ = play_games(args.games, args.seed, False, rules)
        rate = args.games / p_elapsed
        base = base or rate
        print(
            f"  {key:<10} {rate:10.0f} games/s  {p_turns / args.games:6.1f} turns/game"
            f"  {rate / base:5.2f}x jdf"
        )

    states = [s for s in states if s.phase == 1]
    calls, lm_elapsed = timed_loop(lambda s: list(legal_moves(s)), states, args.seconds)
    lm_s = calls / lm_elapsed
    print(f"legal_moves calls/s            {lm_s:10.0f}   target >= 50000 ({len(states)} states)")
    sample = states[:: max(1, len(states) // 60)]
    b_calls, b_elapsed = timed_loop(brute_force, sample, args.seconds)
    bf_s = b_calls / b_elapsed
    print(
        f"  baseline: brute-force oracle  {bf_s:10.0f} calls/s"
        f"  -> legal_moves is {lm_s / bf_s:.0f}x faster"
    )

    rng = random.Random(args.seed)
    pairs = [(s, rng.choice(list(legal_moves(s)))) for s in states]
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < args.seconds:
        for s, m in pairs:
            apply(s, m)
        n += len(pairs)
    v_elapsed = time.perf_counter() - t0
    t0 = time.perf_counter()
    u = 0
    while time.perf_counter() - t0 < args.seconds:
        for s, m in pairs:
            apply_unchecked(s, m)
        u += len(pairs)
    u_elapsed = time.perf_counter() - t0
    print(f"validations/s (checked apply)  {n / v_elapsed:10.0f}")
    print(
        f"  baseline: apply_unchecked     {u / u_elapsed:10.0f} /s"
        f"  -> checking costs {(u / u_elapsed) / (n / v_elapsed):.2f}x"
    )


if __name__ == "__main__":
    main()
