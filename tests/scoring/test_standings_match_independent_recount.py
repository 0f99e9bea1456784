"""Standings computed in SQL equal a plain-Python recount of the same GameResult rows, for the
tournament, each stage (with carried-over totals) and the league season."""

from __future__ import annotations

import random

from games.models import GameResult
from scoring.standings import ScopeRef, recompute_scope, recompute_tournament, standings
from tests.factories import EntryFactory, StageFactory, TournamentFactory
from tests.scoring.conftest import Cup, play_random_sets, seat_round
from tests.scoring.oracle import as_lines, recount
from tournaments.models import League, Season, StageEntrant, Tournament
from tournaments.points import DEFAULT_TIE_BREAKS

KEYS = list(DEFAULT_TIE_BREAKS)


def _results(**filters: object) -> list[GameResult]:
    return list(GameResult.objects.filter(**filters).select_related("game", "entry"))


def test_tournament_standings_equal_the_recount(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(7))

    recompute_tournament(cup.tournament.pk)

    expected = recount(_results(entry__tournament=cup.tournament), KEYS)
    assert as_lines(standings(ScopeRef.tournament(cup.tournament.pk))) == expected
    assert len(expected) == 8


def test_a_checked_in_entrant_without_games_is_listed_with_nothing(cup: Cup) -> None:
    late = EntryFactory(tournament=cup.tournament, number=9, status="checked_in")
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(3), sets=1)

    recompute_tournament(cup.tournament.pk)

    row = next(r for r in standings(ScopeRef.tournament(cup.tournament.pk)) if r.entry == late)
    assert (row.points, row.games, row.best_set) == (0, 0, None)


def test_stage_standings_carry_earlier_stages_over_when_asked(cup: Cup) -> None:
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(11))
    final = StageFactory(tournament=cup.tournament, order=2, name="Final", carry_over_totals=True)
    semi = StageFactory(tournament=cup.tournament, order=3, name="Extra", carry_over_totals=False)
    top4 = cup.entries[:4]
    for stage in (final, semi):
        for entry in top4:
            StageEntrant.objects.create(stage=stage, entry=entry, source="advanced")
    play_random_sets(seat_round(final, top4, number=1), random.Random(12), sets=1)
    play_random_sets(seat_round(semi, top4, number=1), random.Random(13), sets=1)

    recompute_tournament(cup.tournament.pk)

    carried = recount(
        _results(game__table__round__stage__in=[cup.stage, final]),
        KEYS,
    )
    alone = recount(_results(game__table__round__stage=semi), KEYS)
    assert as_lines(standings(ScopeRef.stage(final.pk))) == carried
    assert as_lines(standings(ScopeRef.stage(semi.pk))) == alone
    assert set(alone) == {e.pk for e in top4}


def test_season_standings_sum_a_player_over_the_seasons_tournaments(cup: Cup) -> None:
    season = Season.objects.create(
        league=League.objects.create(name="Chubu League", slug="chubu"), name="2026", slug="2026"
    )
    Tournament.objects.filter(pk=cup.tournament.pk).update(season=season)
    play_random_sets(seat_round(cup.stage, cup.entries), random.Random(5), sets=1)
    second = TournamentFactory(slug="gifu-open", status="running", season=season)
    again = [
        EntryFactory(tournament=second, player=e.player, number=e.number, status="checked_in")
        for e in cup.entries[:4]
    ]
    play_random_sets(seat_round(StageFactory(tournament=second, order=1), again), random.Random(6))
    draft = TournamentFactory(slug="draft-cup", status="draft", season=season)
    hidden = [EntryFactory(tournament=draft, player=e.player, number=e.number) for e in again]
    play_random_sets(seat_round(StageFactory(tournament=draft, order=1), hidden), random.Random(8))

    outcome = recompute_scope(ScopeRef.season(season.pk))

    expected = recount(
        _results(entry__tournament__in=[cup.tournament, second]), KEYS, by_player=True
    )
    assert outcome.changed
    assert as_lines(standings(ScopeRef.season(season.pk)), by_player=True) == expected
