"""The standings API returns the rows the public boards and their JSON exports show — ranks,
shared ranks, points net of penalties, titles, provisional flags — for a tournament, a stage and
a season, paged for large fields, and shows a draft tournament to its organisers only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.standings import recompute_tournament
from tests.factories import UserFactory, browser
from tournaments.models import League, Penalty, Season, Stage, Tournament

from .conftest import Cup, play_random_sets, seat_round

pytestmark = pytest.mark.django_db


def played(cup: Cup) -> None:
    tables = seat_round(cup.stage, cup.entries)
    play_random_sets(tables, random.Random(12), sets=2, games=2, confirmed=0.5)
    Penalty.objects.create(
        tournament=cup.tournament,
        entry=cup.entries[0],
        kind=Penalty.Kind.DEDUCTION,
        points=2,
        reason="slow play",
    )
    recompute_tournament(cup.tournament.pk)


def without_api_fields(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "advancing"} for row in rows]


def test_tournament_standings_are_the_boards_rows(cup: Cup) -> None:
    played(cup)

    api = browser().get(f"/api/tournaments/{cup.tournament.slug}/standings/").json()
    export = browser().get(f"/standings/{cup.tournament.slug}/standings.json").json()

    assert without_api_fields(api["results"]) == export["standings"]
    assert api["count"] == 8 and api["version"] == export["version"]
    assert api["rounds"] == export["rounds"] and api["complete"] == export["complete"]
    assert api["any_provisional"] is True
    assert api["tie_breaks"][0] == "points" and api["cut"] is None
    docked = next(r for r in api["results"] if r["entry"] == cup.entries[0].number)
    assert docked["penalty_points"] == 2
    assert {"daifugo", "fugo", "heimin", "hinmin", "daihinmin", "shared"} <= set(docked)


def test_stage_standings_carry_the_cut_line(cup: Cup) -> None:
    Stage.objects.filter(pk=cup.stage.pk).update(advance_top_n=4)
    played(cup)

    api = browser().get(f"/api/stages/{cup.stage.pk}/standings/").json()
    export = (
        browser()
        .get(f"/standings/{cup.tournament.slug}/stage/{cup.stage.pk}/standings.json")
        .json()
    )

    assert without_api_fields(api["results"]) == export["standings"]
    assert api["cut"] is not None and api["cut"]["rule"]
    flagged = {r["entry"] for r in api["results"] if r["advancing"]}
    assert flagged == set(api["cut"]["advancing"])
    assert 0 < len(flagged) <= 4


def test_season_standings(cup: Cup) -> None:
    season = Season.objects.create(
        league=League.objects.create(name="Tokai League", slug="tokai"), name="2025", slug="2025"
    )
    Tournament.objects.filter(pk=cup.tournament.pk).update(season=season)
    played(cup)

    api = browser().get(f"/api/seasons/{season.pk}/standings/").json()
    export = browser().get(f"/standings/season/{season.pk}/standings.json").json()

    assert api["scope"] == {"kind": "season", "id": season.pk}
    assert without_api_fields(api["results"]) == export["standings"]
    assert browser().get("/api/seasons/999999/standings/").status_code == 404


def test_large_fields_are_paged(cup: Cup) -> None:
    played(cup)
    url = f"/api/tournaments/{cup.tournament.slug}/standings/"

    first = browser().get(url, {"limit": 3}).json()
    second = browser().get(url, {"limit": 3, "offset": 3}).json()
    whole = browser().get(url).json()

    assert first["count"] == 8 and len(first["results"]) == 3
    assert first["previous"] is None and "offset=3" in first["next"]
    assert first["results"] + second["results"] == whole["results"][:6]


def test_a_draft_tournaments_standings_are_for_its_organisers_only(cup: Cup) -> None:
    played(cup)
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.DRAFT)
    url = f"/api/tournaments/{cup.tournament.slug}/standings/"
    organiser = browser()
    organiser.force_login(cup.organiser)
    stranger = browser()
    stranger.force_login(UserFactory(username="someone"))

    assert browser().get(url).status_code == 404
    assert stranger.get(url).status_code == 404
    assert browser().get(f"/api/stages/{cup.stage.pk}/standings/").status_code == 404
    assert organiser.get(url).status_code == 200
    assert organiser.get(url).json()["count"] == 8
