"""How the draw sizes tables, hands out byes, bands by totals and explains itself."""

from __future__ import annotations

import random
import re

import pytest

from tournaments.seating import (
    Constraints,
    Entrant,
    History,
    PastTable,
    SeatingError,
    check_draw,
    random_draw,
    score_draw,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "size", "policy", "expected_tables", "expected_byes"),
    [
        (32, 4, "short", [4] * 8, 0),
        (30, 4, "short", [4] * 6 + [3] * 2, 0),  # two tables of 3 rather than byes
        (30, 4, "byes", [4] * 7, 2),  # byes: the remainder sits out
        (30, 4, "long", [5] * 2 + [4] * 5, 0),  # two tables of 5
        (5, 4, "short", [4], 1),  # 4+1 cannot make two tables of 3 or more
        (7, 3, "short", [3, 3], 1),  # tables of 2 do not exist
        (3, 4, "short", [3], 0),
    ],
)
def test_table_sizes_follow_the_documented_rule(
    players: int, size: int, policy: str, expected_tables: list[int], expected_byes: int
) -> None:
    assert table_sizes(players, size, policy) == (expected_tables, expected_byes)


def test_fewer_than_three_players_cannot_be_seated() -> None:
    with pytest.raises(SeatingError):
        table_sizes(2, 4, "short")


def test_byes_go_to_players_who_had_fewest_byes_then_lowest_totals() -> None:
    entrants = [Entrant(i, f"P{i}", total) for i, total in [(1, 9), (2, 1), (3, 5), (4, 7), (5, 0)]]
    history = History(byes=(5,))

    draw = score_draw(entrants, seed="s", history=history, policy="byes")

    assert draw.byes == (2,)  # P5 had a bye already; P2 has the lowest total of the rest


def test_players_of_similar_totals_share_a_table() -> None:
    totals = {1: 30, 2: 29, 3: 28, 4: 27, 5: 3, 6: 2, 7: 1, 8: 0}
    entrants = [Entrant(i, f"P{i}", t) for i, t in totals.items()]

    draw = score_draw(entrants, seed="s", history=History())

    assert sorted(draw.tables[0].seats) == [1, 2, 3, 4]
    assert sorted(draw.tables[1].seats) == [5, 6, 7, 8]
    assert draw.tables[0].explanation.startswith("Band 1 (totals 27–30)")


def test_a_repeat_pairing_is_swapped_away_and_the_swap_is_explained() -> None:
    # P1 and P2 met in round 1 and would meet again in the top band.
    entrants = [Entrant(i, f"P{i}", 100 - i) for i in range(1, 9)]
    history = History(tables=(PastTable("1", (1, 2, 50, 51)),))

    draw = score_draw(entrants, seed="s", history=history)

    together = [t for t in draw.tables if {1, 2} <= set(t.seats)]
    assert together == []
    assert re.search(
        r"swapped in P\d \(band 2\) for P[12] to avoid a repeat pairing: "
        r"(P1 with P2|P2 with P1) \(round 1\)",
        draw.tables[0].explanation,
    ), draw.tables[0].explanation


def test_seats_are_ordered_so_nobody_repeats_a_seat_position() -> None:
    entrants = [Entrant(i, f"P{i}", 0) for i in range(1, 5)]
    history = History(tables=(PastTable("1", (1, 2, 3, 4)),))

    draw = score_draw(entrants, seed="s", history=history)

    seats = draw.tables[0].seats
    assert all(seats[position] != player for position, player in enumerate((1, 2, 3, 4)))
    assert "nobody repeats an earlier seat position" in draw.tables[0].explanation


def test_random_draw_is_reproducible_from_its_seed_and_differs_for_another() -> None:
    entrants = [Entrant(i, f"P{i}") for i in range(1, 33)]

    assert random_draw(entrants, seed="a") == random_draw(entrants, seed="a")
    assert random_draw(entrants, seed="a") != random_draw(entrants, seed="b")


def test_a_long_history_with_spread_totals_still_draws_a_valid_round() -> None:
    # Regression: after six rounds the remaining cost can be band deviation alone.
    lot = random.Random(64)
    entrants = [Entrant(i, f"P{i}", lot.randint(0, 72)) for i in range(64)]
    history = History(
        tables=tuple(
            PastTable(str(r), t.seats)
            for r in range(6)
            for t in random_draw(entrants, seed=f"history/{r}").tables
        )
    )

    draw = score_draw(entrants, seed="0", history=history)

    assert check_draw(draw, Constraints(frozenset(range(64)))) == []
