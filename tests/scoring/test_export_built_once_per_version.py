"""CSV and JSON exports are built from plain rows once per (scope, version, format, language)
and served from the cache after; their columns are unchanged."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engine.daifugo import DAIFUGO
from scoring.exports import csv_columns
from scoring.standings import recompute_tournament
from tests.factories import TournamentFactory, finished_game, standings_field
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Tournament


def test_the_second_download_of_a_version_reads_no_standings(db: None, client: Client) -> None:
    TournamentFactory(slug="big-open", status=Tournament.Status.RUNNING)
    standings_field(Tournament.objects.get(slug="big-open"), 40)
    for url in ("/standings/big-open/standings.csv", "/standings/big-open/standings.json"):
        first = client.get(url)

        with CaptureQueriesContext(connection) as queries:
            second = client.get(url)

        assert second.content == first.content and b"Entrant 040" in second.content
        assert not any("scoring_standing" in query["sql"] for query in queries), url


def test_a_new_version_is_exported_anew(
    cup: Cup, client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(cup.tournament.pk)
    before = client.get("/standings/nagoya-open/standings.json").json()

    finished_game(table, [doi, aoki, chiba, baba], game_number=2, confirmed=True)
    finished_game(table, [doi, chiba, aoki, baba], game_number=3, confirmed=True)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(cup.tournament.pk)
    after = client.get("/standings/nagoya-open/standings.json").json()
    text = client.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")

    assert (before["version"], before["standings"][0]["player"]) == (1, "Baba")
    assert (after["version"], after["standings"][0]["player"]) == (2, "Doi")
    assert next(csv.DictReader(io.StringIO(text)))["player"] == "Doi"


def test_the_csv_keeps_its_columns(db: None, client: Client) -> None:
    tournament = TournamentFactory(slug="big-open", status=Tournament.Status.RUNNING)
    standings_field(tournament, 1)

    text = client.get("/standings/big-open/standings.csv").content.decode("utf-8-sig")

    header, row = list(csv.reader(io.StringIO(text)))
    # The metric columns are 大富豪's declared metrics, where the title columns always were.
    assert header == csv_columns(DAIFUGO.metrics) == [
        "rank", "shared", "entry", "player", "points", "games", "daifugo", "fugo", "heimin",
        "hinmin", "daihinmin", "fouls", "miyako_ochi", "best_set", "penalty_points",
        "warnings", "provisional_games", "confirmed_points", "confirmed_rank",
        "decided_by_playoff", "reached_stage",
    ]  # fmt: skip
    assert row == ["1", "No", "1", "Entrant 001", "999", "4", "1", "1", "1", "1", "0",
                   "0", "0", "6", "0", "0", "0", "999", "1", "No", ""]  # fmt: skip


def test_an_export_revalidated_with_its_etag_is_not_sent_again(db: None, client: Client) -> None:
    tournament = TournamentFactory(slug="big-open", status=Tournament.Status.RUNNING)
    standings_field(tournament, 3)

    first = client.get("/standings/big-open/standings.csv")
    again = client.get(
        "/standings/big-open/standings.csv", headers={"If-None-Match": first["ETag"]}
    )
    json = client.get(
        "/standings/big-open/standings.json", headers={"If-None-Match": first["ETag"]}
    )

    assert (first.status_code, again.status_code, json.status_code) == (200, 304, 200)
    assert "public" in first["Cache-Control"]
