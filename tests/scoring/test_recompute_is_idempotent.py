"""Recomputing never increments: twice gives identical rows (and no new version), a change in
the results gives a new version, and concurrent recomputes on PostgreSQL end identical."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections

from games.models import Game, GameResult
from scoring.models import Standing, StandingsVersion
from scoring.standings import DIGEST_FIELDS, ScopeRef, recompute_scope
from tests.scoring.conftest import Cup, play_random_sets, seat_round
from tournaments.models import Penalty


def _rows(ref: ScopeRef) -> list[tuple[object, ...]]:
    return list(
        Standing.objects.filter(tournament_id=ref.id, scope="tournament")
        .order_by("entry_id")
        .values_list("pk", *DIGEST_FIELDS, "computed_at", "results_version")
    )


def test_running_twice_leaves_the_rows_untouched(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(1))
    ref = ScopeRef.tournament(cup.tournament.pk)

    first = recompute_scope(ref)
    before = _rows(ref)
    second = recompute_scope(ref)

    assert (first.changed, first.version) == (True, 1)
    assert (second.changed, second.version) == (False, 1)
    # Same primary keys and timestamps: the unchanged run wrote nothing at all.
    assert _rows(ref) == before


def test_a_changed_result_bumps_the_version(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(2), sets=1)
    ref = ScopeRef.tournament(cup.tournament.pk)
    recompute_scope(ref)
    GameResult.objects.filter(entry=cup.entries[0]).update(points=100)

    outcome = recompute_scope(ref)

    assert (outcome.changed, outcome.version) == (True, 2)
    top = Standing.objects.get(scope="tournament", tournament=cup.tournament, rank=1)
    assert top.entry_id == cup.entries[0].pk
    assert StandingsVersion.objects.get(key=ref.key).version == 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_recomputes_end_with_identical_rows(cup: Cup) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("advisory locks and real concurrency need PostgreSQL")
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(4))
    ref = ScopeRef.tournament(cup.tournament.pk)
    recompute_scope(ref)
    expected = [r[1:-2] for r in _rows(ref)]
    Standing.objects.all().delete()
    StandingsVersion.objects.all().delete()
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def worker() -> None:
        try:
            barrier.wait()
            recompute_scope(ref)
        except BaseException as error:  # reported below, in the test thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert [r[1:-2] for r in _rows(ref)] == expected
    # Exactly one of the six changed anything; the others found the same rows.
    assert StandingsVersion.objects.get(key=ref.key).version == 1


def test_with_penalties_and_provisional_results_twice_still_writes_nothing(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(9), sets=1)
    for kind, points in (("deduction", 2), ("warning", 0)):
        Penalty.objects.create(
            tournament=cup.tournament, entry=cup.entries[0], kind=kind, points=points, reason="x"
        )
    ref = ScopeRef.tournament(cup.tournament.pk)

    first = recompute_scope(ref)
    before = _rows(ref)
    second = recompute_scope(ref)

    assert (first.changed, second.changed, second.version) == (True, False, 1)
    assert _rows(ref) == before


def test_confirming_a_game_bumps_the_version_though_no_points_change(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(2), sets=1, confirmed=0)
    ref = ScopeRef.tournament(cup.tournament.pk)
    recompute_scope(ref)
    points = [row[3] for row in _rows(ref)]
    game = Game.objects.filter(table__round__stage=cup.stage).first()
    assert game is not None
    Game.objects.filter(pk=game.pk).update(status="confirmed", confirmed_at=game.finished_at)

    outcome = recompute_scope(ref)

    assert (outcome.changed, outcome.version) == (True, 2)
    assert [row[3] for row in _rows(ref)] == points


def test_withdrawing_a_penalty_bumps_the_version(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(3), sets=1)
    penalty = Penalty.objects.create(
        tournament=cup.tournament, entry=cup.entries[0], kind="warning", reason="phone"
    )
    ref = ScopeRef.tournament(cup.tournament.pk)
    recompute_scope(ref)
    Penalty.objects.filter(pk=penalty.pk).update(withdrawn_at=penalty.created_at)

    assert recompute_scope(ref).changed
