"""Seat draws are valid partitions, and the optimised re-seating beats a random draw."""

from __future__ import annotations

import random
import statistics
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    MAX_TABLE,
    MIN_TABLE,
    POLICIES,
    Constraints,
    Draw,
    Entrant,
    History,
    PastTable,
    check_draw,
    measure,
    random_draw,
    score_draw,
    table_layout,
)


def entrants_of(count: int, totals: list[int]) -> list[Entrant]:
    return [Entrant(i, f"P{i}", totals[i % len(totals)]) for i in range(1, count + 1)]


def history_of(rounds: list[Draw]) -> History:
    return History(
        tables=tuple(
            PastTable(str(n), t.seats)
            for n, draw in enumerate(rounds, start=1)
            for t in draw.tables
        ),
        byes=tuple(b for draw in rounds for b in draw.byes),
    )


scenarios = st.fixed_dictionaries(
    {
        "count": st.integers(min_value=5, max_value=60),
        "table_size": st.integers(min_value=3, max_value=5),
        "policy": st.sampled_from(POLICIES),
        "earlier_rounds": st.integers(min_value=0, max_value=3),
        "totals": st.lists(st.integers(min_value=-10, max_value=40), min_size=1, max_size=8),
        "seed": st.text(min_size=1, max_size=8),
    }
)


def build(s: dict[str, Any]) -> tuple[list[Entrant], History, Constraints]:
    count, size, policy = s["count"], s["table_size"], s["policy"]
    entrants = entrants_of(count, s["totals"])
    earlier = [
        random_draw(entrants, seed=f"{s['seed']}/{r}", table_size=size, policy=policy)
        for r in range(s["earlier_rounds"])
    ]
    return entrants, history_of(earlier), Constraints(frozenset(range(1, count + 1)), size, policy)


@settings(max_examples=150, deadline=None)
@given(scenarios)
def test_every_draw_seats_each_player_exactly_once_within_table_size(s: dict[str, Any]) -> None:
    entrants, history, constraints = build(s)

    for draw in (
        random_draw(entrants, seed="x", table_size=constraints.table_size,
                    policy=constraints.policy),
        score_draw(entrants, seed="x", history=history, table_size=constraints.table_size,
                   policy=constraints.policy),
    ):  # fmt: skip
        placed = [p for t in draw.tables for p in t.seats] + list(draw.byes)
        assert sorted(placed) == sorted(constraints.entrant_ids)  # a partition: once each
        assert all(MIN_TABLE <= len(t.seats) <= MAX_TABLE for t in draw.tables)
        assert check_draw(draw, constraints) == []
        assert all(t.explanation for t in draw.tables)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=3, max_value=200),
    st.integers(min_value=3, max_value=5),
    st.sampled_from(POLICIES),
)
def test_every_policy_keeps_tables_within_one_seat_of_the_size(
    count: int, size: int, policy: str
) -> None:
    layout = table_layout(count, size, policy)

    assert sum(layout.sizes) + layout.byes == count
    assert all(MIN_TABLE <= n <= MAX_TABLE and abs(n - size) <= 1 for n in layout.sizes) or (
        layout.sizes == (count,) and count < size  # fewer than one table: one table of all
    )
    assert list(layout.sizes) == sorted(layout.sizes, reverse=True)  # larger tables first
    assert layout.byes < size  # never a whole table's worth sitting out
    if layout.applied == "short":
        assert max(layout.sizes) <= size and layout.byes == 0
    if layout.applied == "long":
        assert min(layout.sizes) >= size and layout.byes == 0
    if layout.applied == "byes":
        assert set(layout.sizes) == {size}
    if policy == "byes" and count >= size:
        assert layout.applied == "byes"  # byes are always possible with one full table
    if layout.applied != policy:
        assert layout.note_en and layout.note_ja  # a fallback is always explained
    if count % size == 0:
        assert layout.sizes == (size,) * (count // size) and layout.byes == 0


@settings(max_examples=50, deadline=None)
@given(scenarios)
def test_the_same_seed_gives_the_same_draw(s: dict[str, Any]) -> None:
    entrants, history, c = build(s)

    first = score_draw(
        entrants, seed="again", history=history, table_size=c.table_size, policy=c.policy
    )
    second = score_draw(list(reversed(entrants)), seed="again", history=history,
                        table_size=c.table_size, policy=c.policy)  # fmt: skip

    assert first == second


def test_optimised_reseating_has_fewer_repeats_and_seat_repeats_than_random_on_average() -> None:
    repeats: dict[str, list[int]] = {"optimised": [], "random": []}
    seats: dict[str, list[int]] = {"optimised": [], "random": []}
    for scenario in range(40):
        lot = random.Random(scenario)
        entrants = entrants_of(lot.choice([16, 24, 32, 48]), [lot.randint(0, 12) for _ in range(8)])
        earlier = [random_draw(entrants, seed=f"{scenario}/{r}") for r in range(3)]
        history = history_of(earlier)
        candidates = {
            "optimised": score_draw(entrants, seed=str(scenario), history=history),
            "random": random_draw(entrants, seed=f"{scenario}/baseline"),
        }
        for name, draw in candidates.items():
            metrics = measure(draw, history)
            repeats[name].append(metrics.repeat_pairs)
            seats[name].append(metrics.seat_repeats)

    assert statistics.mean(repeats["optimised"]) < statistics.mean(repeats["random"]) / 4
    assert statistics.mean(seats["optimised"]) < statistics.mean(seats["random"])
