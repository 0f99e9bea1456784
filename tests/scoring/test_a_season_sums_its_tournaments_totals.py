"""A season sums, per player, the totals its tournaments record (docs/formats.md, "Seasons and
leagues"): the points column of each tournament board, not its places. The stage a player
reached orders the tournament, never the season, whose rows name no stage reached."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    StageFactory,
    TableFactory,
    TournamentFactory,
    browser,
    finished_game,
)
from tests.scoring.final_order_scenario import LATE, POINTS, play_the_day, tournament_totals
from tournaments.models import Entry, League, Round, Season, Tournament
from tournaments.points import preset_points_table

pytestmark = pytest.mark.django_db
# A second tournament of the season: one game of four of the day's players.
SECOND = [11, 8, 5, 1]


def test_a_season_adds_up_the_tournament_totals_per_player() -> None:
    season = Season.objects.create(
        league=League.objects.create(name="関東リーグ", slug="kanto"), name="2026", slug="2026"
    )
    day = play_the_day()
    Tournament.objects.filter(pk=day.tournament.pk).update(season=season)
    second = TournamentFactory(
        slug="kanto-2", status=Tournament.Status.RUNNING, season=season,
        points_table=preset_points_table("plus2-minus2"),
    )  # fmt: skip
    stage = StageFactory(tournament=second, order=1, name="予選")
    round_ = RoundFactory(
        stage=stage, number=1, status=Round.Status.IN_PLAY, published_at=timezone.now()
    )
    table = TableFactory(round=round_, number=1)
    entries = [
        EntryFactory(
            tournament=second, number=i, player=day.entries[n].player,
            status=Entry.Status.CHECKED_IN,
        )
        for i, n in enumerate(SECOND, start=1)
    ]  # fmt: skip
    for position, entry in enumerate(entries, start=1):
        SeatFactory(table=table, position=position, entry=entry)
    finished_game(table, entries, points=POINTS[4], confirmed=True)
    recompute_tournament(day.tournament.pk)
    recompute_tournament(second.pk)

    # A player with no result, bye or penalty in any of its tournaments is not listed.
    expected = {n: points for n, points in tournament_totals().items() if n != LATE}
    for place, number in enumerate(SECOND):
        expected[number] += POINTS[4][place]
    by_player = {e.player_id: n for n, e in day.entries.items()}
    rows = standings(ScopeRef.season(season.pk))
    assert {by_player[r.player_id]: r.points for r in rows} == expected
    # Ranked by those totals: more points, a better rank.
    ranks = {by_player[r.player_id]: r.rank for r in rows}
    assert all(ranks[a] < ranks[b] for a in ranks for b in ranks if expected[a] > expected[b])
    assert all(r.reached_stage_id is None for r in rows)

    board = browser("ja").get(f"/standings/season/{season.pk}/").content.decode()
    assert 'data-testid="reached-stage"' not in board
    assert 'data-testid="tournament-order"' not in board
