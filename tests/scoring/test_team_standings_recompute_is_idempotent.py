"""Team standings are rebuilt with the scope's individual standings, in the same transaction and
under the same version: a recompute that changes nothing writes nothing and keeps the version;
a hand that changes a team's line bumps it, so the boards' polls see it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.models import StandingsVersion, TeamStanding
from scoring.standings import ScopeRef, recompute_scope, standings_version
from tests.factories import (
    RoundFactory,
    StageFactory,
    guandan_hand,
    guandan_tournament,
    match_table,
    pair,
)
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def _rows(ref: ScopeRef) -> list[tuple[object, ...]]:
    return list(
        TeamStanding.objects.filter(scope=ref.kind, tournament_id=ref.id)
        .order_by("team_id")
        .values_list("team_id", "rank", "match_points", "level_difference", "in_play")
    )


def test_recomputing_twice_changes_nothing_and_a_new_hand_bumps_the_version() -> None:
    tournament = guandan_tournament(games_per_set=4)
    stage = StageFactory(tournament=tournament, order=1)
    first = pair(tournament, 1, "Sakura", ("Aoki", "Baba"))
    second = pair(tournament, 2, "Momiji", ("Chiba", "Doi"))
    round_ = RoundFactory(
        stage=stage, number=1, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    table = match_table(round_, 1, first, second)
    guandan_hand(table, 1, ("4", "2"))
    ref = ScopeRef.tournament(tournament.pk)

    changed = recompute_scope(ref)
    before = _rows(ref)
    again = recompute_scope(ref)

    assert changed.changed and not again.changed
    assert again.version == changed.version == standings_version(ref)
    assert _rows(ref) == before
    assert before[0][4] == {"table": 1, "opponent": second.pk, "levels": ["4", "2"], "hands": 1}

    guandan_hand(table, 2, ("A", "2"), won=0)
    after = recompute_scope(ref)

    assert after.changed and after.version == changed.version + 1
    assert StandingsVersion.objects.get(key=ref.key).version == after.version
    assert _rows(ref) == [
        (first.pk, 1, 2, 13, None),
        (second.pk, 2, 0, -13, None),
    ]
    assert set(
        TeamStanding.objects.filter(tournament=tournament).values_list("results_version", flat=True)
    ) == {after.version}
