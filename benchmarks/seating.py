"""Seating benchmark: time to draw a later round, and its quality, against a random draw.

    python benchmarks/seating.py [--rounds R] [--repeats K] [--extra N --policy short|long|byes]

For 64, 256 and 1024 players, three earlier rounds are drawn at random (the history), totals
are random; then the optimised `score_draw` and the baseline `random_draw` draw the next round
in the same run. Printed per size: median draw time of each, and the repeat table-mate pairs
and seat-position repeats each produces (lower is better). `--extra N` adds N players to each
size so the field does not divide, seated by the uneven-tables `--policy` (tables of 3, tables
of 5 — five-seat orders cost 120 permutations a table — or byes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (
    POLICIES,
    Entrant,
    History,
    PastTable,
    measure,
    random_draw,
    score_draw,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="earlier rounds in the history")
    parser.add_argument("--repeats", type=int, default=5, help="timed draws per size")
    parser.add_argument("--extra", type=int, default=0, help="players over a multiple of 4")
    parser.add_argument("--policy", choices=POLICIES, default="short", help="uneven tables")
    args = parser.parse_args()
    seat = {"policy": args.policy}
    print(
        f"{'players':>7} {'optimised ms':>12} {'random ms':>10} {'ratio':>7} "
        f"{'repeats opt/rand':>17} {'seat repeats opt/rand':>22}"
    )
    for count in (64 + args.extra, 256 + args.extra, 1024 + args.extra):
        lot = random.Random(count)
        entrants = [Entrant(i, f"P{i}", lot.randint(0, 12 * args.rounds)) for i in range(count)]
        earlier = [random_draw(entrants, seed=f"history/{r}", **seat) for r in range(args.rounds)]
        history = History(
            tables=tuple(
                PastTable(str(r), t.seats) for r, d in enumerate(earlier) for t in d.tables
            )
        )
        times: dict[str, list[float]] = {"optimised": [], "random": []}
        for k in range(args.repeats):
            start = time.perf_counter()
            optimised = score_draw(entrants, seed=str(k), history=history, **seat)
            times["optimised"].append(time.perf_counter() - start)
            start = time.perf_counter()
            baseline = random_draw(entrants, seed=str(k), **seat)
            times["random"].append(time.perf_counter() - start)
        opt_ms = statistics.median(times["optimised"]) * 1000
        rand_ms = statistics.median(times["random"]) * 1000
        m_opt, m_rand = measure(optimised, history), measure(baseline, history)
        print(
            f"{count:>7} {opt_ms:>12.1f} {rand_ms:>10.2f} {opt_ms / rand_ms:>6.0f}x "
            f"{m_opt.repeat_pairs:>8}/{m_rand.repeat_pairs:<8} "
            f"{m_opt.seat_repeats:>11}/{m_rand.seat_repeats:<10}"
        )


if __name__ == "__main__":
    main()
