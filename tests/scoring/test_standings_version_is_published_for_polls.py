"""A bumped standings version is published once committed, so a leaderboard poll reads it from
the cache with no query (a recompute that changes nothing bumps nothing:
test_recompute_is_idempotent.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameResult
from scoring.standings import ScopeRef, recompute_scope, standings_version
from tests.scoring.conftest import Cup, play_random_sets, seat_round


def test_after_a_bump_the_version_is_read_with_no_query(
    cup: Cup, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(5), sets=1)
    ref = ScopeRef.tournament(cup.tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_scope(ref)
    assert standings_version(ref) == 1  # read (and cached) by a poll
    GameResult.objects.filter(entry=cup.entries[0]).update(points=50)

    with django_capture_on_commit_callbacks(execute=True):
        outcome = recompute_scope(ref)
    with CaptureQueriesContext(connection) as queries:
        version = standings_version(ref)

    assert (outcome.changed, version) == (True, 2)
    assert len(queries) == 0
