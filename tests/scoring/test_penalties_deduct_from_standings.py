"""Penalties (罰則) in the standings. An active deduction (減点) comes off the points of every
scope it belongs to: the tournament always; a stage when it was given in one of the stage's
rounds (or a carried-over stage's), named directly or through the game it was given in; a
season summed per player. A warning (警告) is counted, never deducted. A withdrawn penalty
stops counting. Giving or withdrawing one recomputes the standings by itself."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.models import GameResult
from scoring.models import Standing
from scoring.standings import ScopeRef, recompute_scope, recompute_tournament, standings
from tests.factories import EntryFactory, StageFactory, TournamentFactory, finished_game
from tests.scoring.conftest import Cup, play_random_sets, seat_round
from tests.scoring.oracle import as_lines, ranked_by_stage_reached, recount
from tournaments import services
from tournaments.models import League, Penalty, Season, StageEntrant, Table, Tournament
from tournaments.points import DEFAULT_TIE_BREAKS

KEYS = list(DEFAULT_TIE_BREAKS)


def _board(ref: ScopeRef) -> dict[str, Standing]:
    return {row.player.display_name: row for row in standings(ref)}


@pytest.fixture
def played(cup: Cup) -> Table:
    """Qualifying round 1, one confirmed game: Aoki 3, Baba 2, Chiba 1, Doi 0."""
    (table,) = seat_round(cup.stage, cup.entries[:4])
    finished_game(table, cup.entries[:4], confirmed=True)
    return table


def test_a_deduction_comes_off_the_points_and_a_warning_is_only_counted(
    cup: Cup, played: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    aoki, baba = cup.entries[:2]

    with django_capture_on_commit_callbacks(execute=True):
        services.give_penalty(
            aoki,
            cup.organiser,
            kind="deduction",
            points=2,
            reason="slow play 遅延行為",
            round_=played.round,
        )
        services.give_penalty(baba, cup.organiser, kind="warning", reason="talking 私語")

    board = _board(ScopeRef.tournament(cup.tournament.pk))
    aoki_row, baba_row = board["Aoki"], board["Baba"]
    assert (aoki_row.points, aoki_row.confirmed_points, aoki_row.penalty_points) == (1, 1, 2)
    assert (baba_row.points, baba_row.penalty_points, baba_row.warnings) == (2, 0, 1)
    # Baba leads now; Aoki (1 point, a 大富豪) stays ahead of Chiba (1 point) on titles.
    assert [(name, row.rank) for name, row in board.items()][:4] == [
        ("Baba", 1),
        ("Aoki", 2),
        ("Chiba", 3),
        ("Doi", 4),
    ]


def test_a_withdrawn_penalty_no_longer_counts(
    cup: Cup, played: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    aoki = cup.entries[0]
    with django_capture_on_commit_callbacks(execute=True):
        deduction = services.give_penalty(
            aoki, cup.organiser, kind="deduction", points=2, reason="slow play 遅延行為"
        )
        warning = services.give_penalty(aoki, cup.organiser, kind="warning", reason="talking")

    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw_penalty(deduction, cup.organiser, reason="wrong table 卓違い")
        services.withdraw_penalty(warning, cup.organiser, reason="wrong table 卓違い")

    row = _board(ScopeRef.tournament(cup.tournament.pk))["Aoki"]
    assert (row.points, row.confirmed_points, row.penalty_points, row.warnings) == (3, 3, 0, 0)
    assert Penalty.objects.filter(entry=aoki, withdrawn_at__isnull=False).count() == 2  # kept


def test_a_stage_counts_the_penalties_given_in_its_rounds(cup: Cup, played: Table) -> None:
    aoki, baba, chiba = cup.entries[:3]
    top4 = cup.entries[:4]
    final = StageFactory(tournament=cup.tournament, order=2, name="Final", carry_over_totals=True)
    extra = StageFactory(tournament=cup.tournament, order=3, name="Extra", carry_over_totals=False)
    for stage in (final, extra):
        for entry in top4:
            StageEntrant.objects.create(stage=stage, entry=entry, source="advanced")
    (final_table,) = seat_round(final, top4, number=1)
    (extra_table,) = seat_round(extra, top4, number=1)
    extra_game = finished_game(extra_table, top4, confirmed=True)
    give = services.give_penalty
    give(aoki, cup.organiser, kind="deduction", points=2, reason="a", round_=played.round)
    # Given in a game of the extra stage's round (no round named): counts there.
    give(aoki, cup.organiser, kind="deduction", points=1, reason="b", game_id=extra_game.pk)  # type: ignore[attr-defined]
    # Given outside any round: the tournament's standings only.
    give(baba, cup.organiser, kind="deduction", points=1, reason="c")
    give(chiba, cup.organiser, kind="warning", reason="d", round_=final_table.round)

    recompute_tournament(cup.tournament.pk)

    def penalties(ref: ScopeRef) -> dict[str, tuple[int, int]]:
        return {
            name: (row.penalty_points, row.warnings)
            for name, row in _board(ref).items()
            if name in ("Aoki", "Baba", "Chiba")
        }

    assert penalties(ScopeRef.tournament(cup.tournament.pk)) == {
        "Aoki": (3, 0),
        "Baba": (1, 0),
        "Chiba": (0, 1),
    }
    assert penalties(ScopeRef.stage(cup.stage.pk)) == {
        "Aoki": (2, 0),
        "Baba": (0, 0),
        "Chiba": (0, 0),
    }
    # The final carries the qualifying over: its round's warning and qualifying's deduction.
    assert penalties(ScopeRef.stage(final.pk)) == {"Aoki": (2, 0), "Baba": (0, 0), "Chiba": (0, 1)}
    assert penalties(ScopeRef.stage(extra.pk)) == {"Aoki": (1, 0), "Baba": (0, 0), "Chiba": (0, 0)}
    extra_aoki = _board(ScopeRef.stage(extra.pk))["Aoki"]
    assert (extra_aoki.points, extra_aoki.confirmed_points) == (2, 2)  # 3 for first place − 1


def test_a_season_sums_a_players_deductions_over_its_tournaments(cup: Cup, played: Table) -> None:
    season = Season.objects.create(
        league=League.objects.create(name="Chubu League", slug="chubu"), name="2026", slug="2026"
    )
    Tournament.objects.filter(pk=cup.tournament.pk).update(season=season)
    second = TournamentFactory(slug="gifu-open", status="running", season=season)
    draft = TournamentFactory(slug="draft-cup", status="draft", season=season)
    aoki = cup.entries[0]
    for tournament in (cup.tournament, second, draft):
        entry = (
            aoki
            if tournament == cup.tournament
            else EntryFactory(tournament=tournament, player=aoki.player, number=1)
        )
        Penalty.objects.create(
            tournament=tournament, entry=entry, kind="deduction", points=2, reason="late"
        )
    EntryFactory(tournament=second, number=2, player__display_name="Ueno")
    Penalty.objects.create(
        tournament=second,
        entry=second.entries.get(number=2),
        kind="warning",
        reason="phone 携帯電話",
    )

    recompute_scope(ScopeRef.season(season.pk))

    board = _board(ScopeRef.season(season.pk))
    # Aoki's 3 points less 2 + 2 (the draft tournament does not count); Ueno, with a warning
    # and no game, is listed with it.
    assert (board["Aoki"].points, board["Aoki"].penalty_points) == (-1, 4)
    assert (board["Ueno"].points, board["Ueno"].games, board["Ueno"].warnings) == (0, 0, 1)


def _random_penalties(cup: Cup, rng: random.Random) -> None:
    tables = Table.objects.filter(round__stage__tournament=cup.tournament).select_related("round")
    rounds = [None, *(t.round for t in tables)]
    for _ in range(12):
        warning = rng.random() < 0.4
        penalty = Penalty.objects.create(
            tournament=cup.tournament,
            entry=rng.choice(cup.entries),
            round=rng.choice(rounds),
            kind="warning" if warning else "deduction",
            points=0 if warning else rng.randint(1, 3),
            reason="random",
        )
        if rng.random() < 0.25:
            Penalty.objects.filter(pk=penalty.pk).update(withdrawn_at=penalty.created_at)


def test_random_penalties_equal_the_recount(cup: Cup) -> None:
    rng = random.Random(17)
    play_random_sets(seat_round(cup.stage, cup.entries), rng)
    final = StageFactory(tournament=cup.tournament, order=2, name="Final", carry_over_totals=False)
    top4 = cup.entries[:4]
    for entry in top4:
        StageEntrant.objects.create(stage=final, entry=entry, source="advanced")
    play_random_sets(seat_round(final, top4, number=1), rng, sets=1)
    _random_penalties(cup, rng)

    recompute_tournament(cup.tournament.pk)

    results = GameResult.objects.select_related("game", "entry")
    penalties = Penalty.objects.select_related("entry")
    everything = recount(
        results.filter(entry__tournament=cup.tournament),
        KEYS,
        penalties=penalties.filter(tournament=cup.tournament),
    )
    in_final = recount(
        results.filter(game__table__round__stage=final),
        KEYS,
        penalties=penalties.filter(round__stage=final),
        zero=[e.pk for e in top4],
    )
    in_qualifying = recount(
        results.filter(game__table__round__stage=cup.stage),
        KEYS,
        penalties=penalties.filter(round__stage=cup.stage),
        zero=[e.pk for e in cup.entries],
    )
    # The tournament's figures count everything; its order is by stage reached first.
    rest = [e.pk for e in cup.entries if e not in top4]
    expected = ranked_by_stage_reached(
        everything, [([e.pk for e in top4], in_final), (rest, in_qualifying)]
    )
    assert as_lines(standings(ScopeRef.tournament(cup.tournament.pk))) == expected
    assert as_lines(standings(ScopeRef.stage(final.pk))) == in_final
    assert any(line["penalty_points"] for line in everything.values())
