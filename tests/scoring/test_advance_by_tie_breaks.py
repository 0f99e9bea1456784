"""Advancing a stage cuts on the standings, so the tournament's tie-breaks decide points ties
(tournaments asks `tournaments.ranking`; scoring answers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import timezone

from scoring.cuts import stage_ranking as scoring_ranking
from tests.factories import StageFactory, finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments import ranking
from tournaments.models import Round, Stage, StageEntrant


@pytest.fixture
def cut_to_one(cup: Cup) -> Iterator[tuple[Stage, Stage]]:
    """Qualifying with a cut to one player after the tie-break scenario of test_tie_breaks:
    Aoki, Baba and Chiba all score 4 points; Aoki has a 大富豪 and no foul."""
    Stage.objects.filter(pk=cup.stage.pk).update(advance_top_n=1)
    cup.stage.refresh_from_db()
    final = StageFactory(tournament=cup.tournament, order=2, name="Final 決勝")
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    points = (4, 2, 1, 0)
    finished_game(table, [aoki, baba, doi, chiba], game_number=1, points=points, confirmed=True)
    finished_game(
        table, [chiba, baba, doi, aoki], game_number=2, points=points, fouls=(1,), confirmed=True
    )
    now = timezone.now()
    Round.objects.filter(pk=table.round_id).update(
        status=Round.Status.REVEALED, completed_at=now, revealed_at=now
    )
    yield cup.stage, final


def test_the_organiser_page_advances_the_tie_break_winner(
    client: Client, cup: Cup, cut_to_one: tuple[Stage, Stage]
) -> None:
    qualifying, final = cut_to_one
    client.force_login(cup.organiser)

    page = client.get(f"/organiser/{cup.tournament.slug}/stages/{qualifying.pk}/advance/")
    assert "Ranked by standings, confirmed results only: points" in page.content.decode()

    response = client.post(
        f"/organiser/{cup.tournament.slug}/stages/{qualifying.pk}/advance/", {"tie_break": ""}
    )

    assert response.status_code == 302
    advanced = StageEntrant.objects.filter(stage=final, source=StageEntrant.Source.ADVANCED)
    assert [e.entry.player.display_name for e in advanced] == ["Aoki"]


def test_on_points_alone_the_same_stage_is_a_three_way_tie(
    cup: Cup, cut_to_one: tuple[Stage, Stage]
) -> None:
    qualifying, _ = cut_to_one
    ranking.register_stage_ranking(None)  # tournaments without scoring: total points only
    try:
        keys = ranking.stage_ranking(qualifying).keys
    finally:
        ranking.register_stage_ranking(scoring_ranking)

    tied = sorted(e.player.display_name for e in cup.entries[:4] if keys[e.pk] == 4)
    assert tied == ["Aoki", "Baba", "Chiba"]
