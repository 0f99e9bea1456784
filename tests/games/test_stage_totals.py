"""tournaments.selectors.stage_totals sums GameResult points (and earlier stages when carried)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import record_quick_result
from tests.factories import GameFactory, RoundFactory, StageFactory, TableFactory
from tournaments.models import Round, Seat
from tournaments.selectors import stage_totals

from .conftest import Crew

pytestmark = pytest.mark.django_db


def quick(crew: Crew, table_id: int, number: int, order: list[int], fouls: list[int]) -> None:
    game: Game = GameFactory(
        table_id=table_id, game_number=number, mode="quick", hands=[None] * 4, counts=[13] * 4
    )
    record_quick_result(game, crew.organiser, order, fouls)


def test_totals_sum_points_per_entry(crew: Crew) -> None:
    quick(crew, crew.table.pk, 1, [3, 0], [1, 2])  # 3-2-1-0: seat4 3, seat1 2, seat3 1, seat2 0
    quick(crew, crew.table.pk, 2, [0, 1, 2, 3], [])  # seat1 3, seat2 2, seat3 1, seat4 0
    numbers = dict(Seat.objects.filter(table=crew.table).values_list("entry_id", "entry__number"))

    totals = stage_totals(crew.table.round.stage)

    assert {numbers[e]: t for e, t in totals.items() if e in numbers} == {1: 5, 2: 2, 3: 2, 4: 3}


def test_a_stage_carrying_totals_over_adds_earlier_stages(crew: Crew) -> None:
    first = crew.table.round.stage
    quick(crew, crew.table.pk, 1, [3, 0], [1, 2])
    final = StageFactory(tournament=crew.tournament, order=first.order + 1, carry_over_totals=True)
    round_ = RoundFactory(stage=final, number=1, status=Round.Status.DRAFT)
    table = TableFactory(round=round_, number=1)
    for seat in Seat.objects.filter(table=crew.table):
        Seat.objects.create(table=table, round=round_, entry=seat.entry, position=seat.position)
    quick(crew, table.pk, 1, [0, 1, 2, 3], [])
    numbers = dict(Seat.objects.filter(table=table).values_list("entry_id", "entry__number"))

    carried = stage_totals(final)
    alone = stage_totals(first)

    assert {numbers[e]: carried.get(e) for e in numbers} == {1: 5, 2: 2, 3: 2, 4: 3}
    assert {numbers[e]: alone.get(e) for e in numbers} == {1: 2, 2: 0, 3: 1, 4: 3}
