"""Every public output of a tournament's order — each stage's board, the tournament's board,
the embeddable board, the printed sheets, the CSV and JSON exports and the standings API —
agrees with a naive recount written from the documented rules (`final_order_oracle`), for
multi-stage tournaments generated at random and run through the services: qualifying rounds,
an optional cut, a final, tables of 3, 4 and 5, byes, forfeits, fouls and 都落ち, deductions,
ties at the cut settled by a playoff or a lot, ties in the final settled by a playoff, and a
correction after the seed reveal.

A stage's outputs are compared on its own entrants' order, ranks and points (a stage carrying
totals over may list others too); the tournament's on the order and ranks, stage reached
first (which points a tournament row shows, the stage's or the day's, does not order it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from scoring.standings import recompute_tournament
from tests.scoring import final_order_oracle as oracle
from tests.scoring.published_order import (
    Line,
    among,
    api_lines,
    by_rank,
    correct_after_reveal,
    csv_lines,
    json_lines,
    new_event,
    page_lines,
    run_stages,
)
from tournaments import services
from tournaments.models import Stage, Tournament

pytestmark = pytest.mark.django_db

# (table size, uneven-tables policy): tables of 3 and 4, 4 and 5, byes, …
LAYOUTS = [(4, "short"), (4, "long"), (4, "byes"), (3, "long"), (5, "short"), (5, "long")]
PRESETS = ["3-2-1-0", "5-4-3-2-1", "plus2-minus2", "50-30-20-10-last70"]


@dataclass(frozen=True)
class Plan:
    entrants: int
    layout: tuple[int, str]
    bye_points: int
    preset: str
    games_per_set: int
    qualifying_rounds: int
    cut: int | None  # top N into a cut stage (準決勝), or no cut
    final: int  # top N into the final
    carry_over: tuple[bool, bool]  # the cut's and the final's
    forfeits: float
    penalties: int
    correction: bool
    seed: int


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    entrants = draw(st.integers(9, 16))
    cut = draw(st.none() | st.integers(6, entrants - 1))
    field = entrants if cut is None else cut
    return Plan(
        entrants=entrants,
        layout=draw(st.sampled_from(LAYOUTS)),
        bye_points=draw(st.integers(0, 3)),
        preset=draw(st.sampled_from(PRESETS)),
        games_per_set=draw(st.integers(1, 2)),
        qualifying_rounds=draw(st.integers(1, 2)),
        cut=cut,
        final=draw(st.integers(3, min(field - 1, 8))),
        carry_over=(draw(st.booleans()), draw(st.booleans())),
        forfeits=draw(st.sampled_from([0.0, 0.15])),
        penalties=draw(st.integers(0, 1)),
        correction=draw(st.booleans()),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


def run(plan: Plan) -> Tournament:
    size, policy = plan.layout
    event = new_event(
        f"oracle-{plan.seed}",
        plan.entrants,
        rng=random.Random(plan.seed),
        table_size=size,
        uneven_tables=policy,
        bye_points=plan.bye_points,
        points_preset=plan.preset,
        games_per_set=plan.games_per_set,
    )
    event.forfeits, event.penalties = plan.forfeits, plan.penalties
    tournament, organiser = event.tournament, event.organiser
    rounds = [plan.qualifying_rounds]
    if plan.cut is not None:
        services.add_stage(
            tournament,
            organiser,
            name="Semi-final 準決勝",
            kind=Stage.Kind.CUT,
            advance_top_n=plan.cut,
            carry_over_totals=plan.carry_over[0],
        )
        rounds.append(1)
    services.add_stage(
        tournament,
        organiser,
        name="Final 決勝",
        kind=Stage.Kind.FINAL,
        advance_top_n=plan.final,
        carry_over_totals=plan.carry_over[1],
    )
    rounds.append(1)
    run_stages(event, rounds)
    if plan.correction:
        correct_after_reveal(event)
    recompute_tournament(tournament.pk)
    return tournament


def expected(places: list[oracle.Place], numbers: dict[int, int]) -> list[Line]:
    return sorted(
        ((numbers[p.entry], p.rank, p.points) for p in places), key=lambda line: (line[1], line[0])
    )


def check_stages(client: Client, tournament: Tournament) -> None:
    numbers = dict(tournament.entries.values_list("pk", "number"))
    slug = tournament.slug
    for stage in oracle.main_stages(tournament):
        want = expected(oracle.stage_board(stage), numbers)
        members = {n for n, _, _ in want}
        base = f"/standings/{slug}/stage/{stage.pk}/"
        for name, lines in (
            ("stage board", page_lines(client, base)),
            ("stage print", page_lines(client, f"{base}print/")),
            ("stage CSV", csv_lines(client, f"{base}standings.csv")),
            ("stage JSON", json_lines(client, f"{base}standings.json")),
            ("stage API", api_lines(client, f"/api/stages/{stage.pk}/standings/")),
        ):
            published = among(lines, members)
            assert published == want, f"{stage.name}, {name} (entry, rank, points): {published}"


def check_tournament(client: Client, tournament: Tournament) -> None:
    numbers = dict(tournament.entries.values_list("pk", "number"))
    slug = tournament.slug
    want_order = by_rank(expected(oracle.tournament_board(tournament), numbers))
    note(f"the oracle's tournament order (entry, rank): {want_order}")
    for name, lines in (
        ("tournament board", page_lines(client, f"/standings/{slug}/")),
        ("embed", page_lines(client, f"/embed/{slug}/")),
        ("tournament print", page_lines(client, f"/standings/{slug}/print/")),
        ("tournament CSV", csv_lines(client, f"/standings/{slug}/standings.csv")),
        ("tournament JSON", json_lines(client, f"/standings/{slug}/standings.json")),
        ("tournament API", api_lines(client, f"/api/tournaments/{slug}/standings/")),
    ):
        published = by_rank(lines)
        assert published == want_order, f"{name} (entry, rank): {published}"


@settings(
    max_examples=15,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=plans())
def test_every_board_matches_the_naive_recount(client: Client, plan: Plan) -> None:
    note(repr(plan))
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()  # no page rendered for an earlier example answers this one
    # Each example in a savepoint of its own, rolled back after: the next one starts empty.
    with transaction.atomic():
        try:
            tournament = run(plan)
            check_stages(client, tournament)
            check_tournament(client, tournament)
        finally:
            transaction.set_rollback(True)
