"""Migrations games 0009–0011 and scoring 0006–0008 move the 大富豪 columns into the
family-neutral shape and back: every result's title, foul and 都落ち into `GameResult.detail`
(and each version's placings), every standing's title counts into `Standing.metrics`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game, GameResult, ResultVersion
from tests.factories import EntryFactory, GameFactory, seated_table

GAMES_BEFORE = [("games", "0008_game_seating")]
GAMES_AFTER = [("games", "0011_remove_result_daifugo_columns")]
SCORING_BEFORE = [("scoring", "0005_standings_queue_fewer_indexes")]
SCORING_AFTER = [("scoring", "0008_remove_standing_title_columns")]
COUNTS = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin", "fouls", "miyako_ochi")


@pytest.fixture
def back_to_latest_afterwards() -> Iterator[None]:
    # Later tests need the whole schema: leave the database fully migrated, as it was found.
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest_afterwards")
def test_results_keep_their_title_foul_and_miyako_ochi_both_ways() -> None:
    table = seated_table()
    game = GameFactory(table=table, status=Game.Status.FINISHED, finished_at=timezone.now())
    entries = [s.entry_id for s in table.seats.order_by("position")]
    old = _migrate(GAMES_BEFORE)
    OldResult = old.get_model("games", "GameResult")
    # JDF-T16: 大富豪, 富豪, the fallen 大富豪 (都落ち), a foul; and a version of the same.
    rows = [
        (2, 1, "daifugo", False, False),
        (3, 2, "fugo", False, False),
        (0, 3, "hinmin", False, True),
        (1, 4, "daihinmin", True, False),
    ]
    for seat, place, title, foul, miyako_ochi in rows:
        OldResult.objects.create(
            game_id=game.pk,
            entry_id=entries[seat],
            seat=seat,
            place=place,
            title=title,
            foul=foul,
            miyako_ochi=miyako_ochi,
            points=4 - place,
        )
    old_placings = [
        {
            "seat": seat,
            "entry": entries[seat],
            "place": place,
            "title": title,
            "foul": foul,
            "miyako_ochi": miyako_ochi,
            "forfeit": False,
            "points": 4 - place,
        }
        for seat, place, title, foul, miyako_ochi in rows
    ]
    old.get_model("games", "ResultVersion").objects.create(
        game_id=game.pk, number=1, kind="recorded", placings=old_placings
    )

    _migrate(GAMES_AFTER)

    got = [
        (r.seat, r.place, r.team, r.detail, r.points)
        for r in GameResult.objects.filter(game_id=game.pk).order_by("place")
    ]
    assert got == [
        (seat, place, None, {"title": title, "foul": foul, "miyako_ochi": fell}, 4 - place)
        for seat, place, title, foul, fell in rows
    ]
    version = ResultVersion.objects.get(game_id=game.pk)
    assert version.placings[2] == {
        "seat": 0,
        "entry": entries[0],
        "place": 3,
        "team": None,
        "detail": {"title": "hinmin", "foul": False, "miyako_ochi": True},
        "forfeit": False,
        "points": 1,
    }

    old = _migrate(GAMES_BEFORE)

    back = old.get_model("games", "GameResult").objects.filter(game_id=game.pk)
    assert [
        (r.seat, r.place, r.title, r.foul, r.miyako_ochi) for r in back.order_by("place")
    ] == rows
    assert old.get_model("games", "ResultVersion").objects.get().placings == old_placings


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest_afterwards")
def test_a_result_without_a_title_keeps_none_and_comes_back_blank() -> None:
    table = seated_table(names=("Aoki", "Baba", "Chiba"))
    game = GameFactory(
        table=table, seats=3, status=Game.Status.FINISHED, finished_at=timezone.now()
    )
    entry = table.seats.get(position=1).entry_id
    old = _migrate(GAMES_BEFORE)
    old.get_model("games", "GameResult").objects.create(
        game_id=game.pk, entry_id=entry, seat=0, place=1, title="", points=2
    )

    _migrate(GAMES_AFTER)

    assert GameResult.objects.get().detail == {"title": None, "foul": False, "miyako_ochi": False}
    old = _migrate(GAMES_BEFORE)
    assert old.get_model("games", "GameResult").objects.get().title == ""


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest_afterwards")
def test_standings_keep_their_title_counts_in_metrics_both_ways() -> None:
    entry = EntryFactory()
    counts = dict(zip(COUNTS, (3, 2, 0, 1, 4, 1, 2), strict=True))
    old = _migrate(SCORING_BEFORE)
    old.get_model("scoring", "Standing").objects.create(
        scope="tournament",
        tournament_id=entry.tournament_id,
        entry_id=entry.pk,
        player_id=entry.player_id,
        points=9,
        games=12,
        rank=1,
        computed_at=timezone.now(),
        results_version=1,
        **counts,
    )

    new = _migrate(SCORING_AFTER)

    # The model as it stood then: later migrations add columns to the table.
    row = new.get_model("scoring", "Standing").objects.get()
    assert row.metrics == counts
    assert (row.points, row.games, row.rank) == (9, 12, 1)
    old = _migrate(SCORING_BEFORE)
    back = old.get_model("scoring", "Standing").objects.get()
    assert {name: getattr(back, name) for name in COUNTS} == counts
