"""Standings and a top-N cut computed from the documented rule, independently of the standings
code (for the tests of what a ruling changes, issue #35 §3): points added up, competition
ranking (equal totals share a rank, the next rank skips; REFERENCE §1.2), and a cut that never
splits a tie — a shared total straddling the line leaves those entrants tied."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def totals(
    orders: Iterable[Sequence[str]], points: Sequence[int], deductions: Mapping[str, int] = {}
) -> dict[str, int]:
    """Points per name over finishing orders (first out first), less any deductions."""
    total: dict[str, int] = {}
    for order in orders:
        for place, name in enumerate(order):
            total[name] = total.get(name, 0) + points[place]
    return {name: value - deductions.get(name, 0) for name, value in total.items()}


def ranks(points: Mapping[str, int]) -> dict[str, tuple[int, bool]]:
    """Name → (1 + how many scored more, whether another scored the same)."""
    return {
        name: (
            1 + sum(other > mine for other in points.values()),
            sum(other == mine for other in points.values()) > 1,
        )
        for name, mine in points.items()
    }


def cut(points: Mapping[str, int], top: int) -> dict[str, str]:
    """Top `top` by points: "in" when certainly inside, "tied" when an equal total straddles
    the line, "out" otherwise."""
    status = {}
    for name, mine in points.items():
        above = sum(other > mine for other in points.values())
        level = sum(other == mine for other in points.values())
        status[name] = "in" if above + level <= top else "tied" if above < top else "out"
    return status


def rank_changes(
    before: Mapping[str, int], after: Mapping[str, int]
) -> dict[str, tuple[int, bool, int, bool]]:
    was, now = ranks(before), ranks(after)
    return {name: (*was[name], *now[name]) for name in before if was[name] != now[name]}


def cut_changes(
    before: Mapping[str, int], after: Mapping[str, int], top: int
) -> dict[str, tuple[str, str]]:
    was, now = cut(before, top), cut(after, top)
    return {name: (was[name], now[name]) for name in before if was[name] != now[name]}
