"""When the field is not a multiple of the table size, the tournament's policy decides: tables
one short (3 at size 4), tables one larger (5 at size 4) or byes — and a policy that cannot
seat the count falls back to the nearest valid layout, saying why."""

from __future__ import annotations

import pytest

from tournaments.seating import (
    Constraints,
    Entrant,
    History,
    check_draw,
    random_draw,
    score_draw,
    table_layout,
)

# players -> (short, long, byes) at tables of 4: (sizes, byes, applied policy)
EXPECTED: dict[int, tuple[tuple[list[int], int, str], ...]] = {
    5: (([4], 1, "byes"), ([5], 0, "long"), ([4], 1, "byes")),
    6: (([3, 3], 0, "short"), ([3, 3], 0, "short"), ([4], 2, "byes")),
    7: (([4, 3], 0, "short"), ([4, 3], 0, "short"), ([4], 3, "byes")),
    9: (([3, 3, 3], 0, "short"), ([5, 4], 0, "long"), ([4, 4], 1, "byes")),
    10: (([4, 3, 3], 0, "short"), ([5, 5], 0, "long"), ([4, 4], 2, "byes")),
    11: (([4, 4, 3], 0, "short"), ([4, 4, 3], 0, "short"), ([4, 4], 3, "byes")),
    13: (([4, 3, 3, 3], 0, "short"), ([5, 4, 4], 0, "long"), ([4, 4, 4], 1, "byes")),
    17: (([4, 4, 3, 3, 3], 0, "short"), ([5, 4, 4, 4], 0, "long"), ([4] * 4, 1, "byes")),
    18: (([4, 4, 4, 3, 3], 0, "short"), ([5, 5, 4, 4], 0, "long"), ([4] * 4, 2, "byes")),
    19: (([4, 4, 4, 4, 3], 0, "short"), ([5, 5, 5, 4], 0, "long"), ([4] * 4, 3, "byes")),
    22: (([4] * 4 + [3, 3], 0, "short"), ([5, 5, 4, 4, 4], 0, "long"), ([4] * 5, 2, "byes")),
}
CASES = [
    (players, policy, *expected)
    for players, by_policy in EXPECTED.items()
    for policy, expected in zip(("short", "long", "byes"), by_policy, strict=True)
]


@pytest.mark.parametrize(("players", "policy", "sizes", "byes", "applied"), CASES)
def test_each_policy_gives_the_documented_tables_at_size_four(
    players: int, policy: str, sizes: list[int], byes: int, applied: str
) -> None:
    layout = table_layout(players, 4, policy)

    assert (list(layout.sizes), layout.byes, layout.applied) == (sizes, byes, applied)
    assert bool(layout.note_en) == (applied != policy)  # a fallback says why, only then


@pytest.mark.parametrize(("players", "policy", "sizes", "byes", "applied"), CASES)
def test_both_draws_follow_the_layout_and_pass_the_checker(
    players: int, policy: str, sizes: list[int], byes: int, applied: str
) -> None:
    entrants = [Entrant(i, f"P{i}", i % 5) for i in range(1, players + 1)]
    constraints = Constraints(frozenset(range(1, players + 1)), 4, policy)

    for draw in (
        random_draw(entrants, seed="s", table_size=4, policy=policy),
        score_draw(entrants, seed="s", history=History(), table_size=4, policy=policy),
    ):
        assert [len(t.seats) for t in draw.tables] == sizes
        assert len(draw.byes) == byes
        assert check_draw(draw, constraints) == []


def test_the_preview_summary_reads_like_the_issue() -> None:
    assert table_layout(22, 4, "short").summary_en == "22 players → 4 tables of 4 + 2 tables of 3"
    assert table_layout(22, 4, "byes").summary_en == "22 players → 5 tables of 4 + 2 byes"
    assert table_layout(18, 4, "long").summary_en == "18 players → 2 tables of 5 + 2 tables of 4"
    assert table_layout(5, 4, "long").summary_en == "5 players → 1 table of 5"
    assert table_layout(22, 4, "byes").summary_ja == "22名 → 4人卓 5卓 + 不戦 2名"


def test_tables_of_five_fall_back_with_a_reason_when_there_are_too_few_full_tables() -> None:
    layout = table_layout(11, 4, "long")

    assert layout.applied == "short"
    assert "Tables of 5 cannot seat 11 players" in layout.note_en
    assert "tables of 3 are used instead" in layout.note_en


def test_tables_of_six_do_not_exist_so_size_five_falls_back() -> None:
    assert table_layout(12, 5, "long").sizes == (4, 4, 4)  # short instead
    layout = table_layout(6, 5, "long")  # neither 6 nor 3+3 (size 5 goes down to 4 only)
    assert (layout.sizes, layout.byes, layout.applied) == ((5,), 1, "byes")
    assert "more than a game allows" in layout.note_en


def test_a_field_smaller_than_one_table_plays_one_short_table_even_under_byes() -> None:
    layout = table_layout(3, 4, "byes")

    assert (layout.sizes, layout.byes) == ((3,), 0)
    assert layout.note_en


def test_byes_rotate_to_players_who_had_fewer_byes() -> None:
    entrants = [Entrant(i, f"P{i}", 0) for i in range(1, 10)]  # 9 players: 2 tables + 1 bye
    earlier: list[int] = []
    for r in range(9):
        draw = score_draw(
            entrants, seed=str(r), history=History(byes=tuple(earlier)), policy="byes"
        )
        earlier.extend(draw.byes)

    assert sorted(earlier) == list(range(1, 10))  # nine rounds, nine different players
