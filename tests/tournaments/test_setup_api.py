"""API parity for setting a tournament up: stages, the advancement preview, playoffs, settings
(with the same per-field refusals) and leagues and seasons."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import UserFactory, browser
from tournaments import services
from tournaments.models import League, Stage, Tournament

from .conftest import checked_in
from .stage_scenarios import tied_qualifying

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_stages_are_created_edited_and_deleted_through_the_api(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    client.force_login(organiser)
    checked_in(tournament, 16)

    refused = client.post(
        "/api/stages/", {"tournament": "nagoya-open", "kind": "cut", "advance_top_n": 20}, JSON
    )
    created = client.post(
        "/api/stages/", {"tournament": "nagoya-open", "kind": "cut", "advance_top_n": 6}, JSON
    )
    cut_id = created.json()["id"]
    edited = client.patch(f"/api/stages/{cut_id}/", {"name": "準決勝 A"}, JSON)
    after_final = client.patch(f"/api/stages/{stage.pk}/", {"kind": "final"}, JSON)
    deleted = client.delete(f"/api/stages/{cut_id}/")

    assert refused.status_code == 400
    assert refused.json()["code"] == "top_n_too_large"
    assert refused.json()["message_ja"]
    assert created.status_code == 201
    assert created.json()["notices"][0]["code"] == "uneven_tables"
    assert edited.json()["name"] == "準決勝 A"
    assert after_final.status_code == 400
    assert deleted.status_code == 204
    assert tournament.stages.count() == 1


def test_strangers_cannot_add_stages(client: Client, tournament: Tournament, stage: Stage) -> None:
    client.force_login(UserFactory())

    response = client.post("/api/stages/", {"tournament": "nagoya-open", "kind": "cut"}, JSON)

    assert response.status_code == 404


def test_preview_and_playoff_through_the_api(
    client: Client, organiser: User, head_referee: User, tournament: Tournament, stage: Stage
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)
    client.force_login(organiser)

    preview = client.get(f"/api/stages/{stage.pk}/advancement-preview/").json()
    (tie,) = preview["ties"]
    playoff = client.post(f"/api/stages/{stage.pk}/playoff/", {"entries": tie["numbers"]}, JSON)
    anonymous = browser().get(f"/api/stages/{stage.pk}/advancement-preview/")

    assert sorted(tie["numbers"]) == sorted(e.number for e in seats[2])
    assert {r["status"] for r in preview["rows"]} == {"in", "tied", "out"}
    assert playoff.status_code == 201
    assert playoff.json()["kind"] == "playoff"
    assert playoff.json()["playoff_for"] == stage.pk
    assert anonymous.status_code == 403


def test_settings_patch_refuses_per_field_with_the_error_json(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    client.force_login(organiser)
    checked_in(tournament, 8)
    services.publish_round(services.draw_round(stage, organiser), organiser)

    refused = client.patch(
        "/api/tournaments/nagoya-open/",
        {"table_size": 5, "games_per_set": 2, "ruleset": "jdf@2", "venue": "Hall"},
        JSON,
    )
    saved = client.patch("/api/tournaments/nagoya-open/", {"venue": "Hall C"}, JSON)

    assert refused.status_code == 400
    fields = refused.json()["fields"]
    assert {f: e["code"] for f, e in fields.items()} == {
        "table_size": "round_drawn",
        "games_per_set": "round_published",
        "ruleset": "ruleset_pinned",
    }
    assert all(e["message_ja"] for e in fields.values())
    assert saved.status_code == 200
    assert saved.json()["changed"] == {"venue": {"old": "", "new": "Hall C"}}


def test_only_organisers_patch_settings(client: Client, tournament: Tournament) -> None:
    client.force_login(UserFactory())

    response = client.patch("/api/tournaments/nagoya-open/", {"name": "Mine"}, JSON)

    assert response.status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).name == "Nagoya Open"


def test_leagues_and_seasons_are_public_to_read_and_staff_to_write(
    client: Client, tournament: Tournament
) -> None:
    client.force_login(UserFactory(username="not-staff"))
    assert client.post("/api/leagues/", {"name": "X", "slug": "x"}, JSON).status_code == 403
    client.force_login(UserFactory(username="staff-b", is_staff=True))

    league = client.post("/api/leagues/", {"name": "JDF Cup", "slug": "jdf-cup"}, JSON).json()
    season = client.post(
        "/api/seasons/", {"league": league["id"], "name": "2026", "slug": "2026"}, JSON
    ).json()
    Tournament.objects.filter(pk=tournament.pk).update(season_id=season["id"])
    renamed = client.patch(f"/api/leagues/{league['id']}/", {"name": "JDF Cup 天下一"}, JSON)
    listed = browser().get("/api/seasons/").json()

    assert renamed.json()["name"] == "JDF Cup 天下一"
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[0]["tournaments"] == ["nagoya-open"]
    assert rows[0]["standings_url"] == f"/standings/season/{season['id']}/"
    assert League.objects.get().seasons.count() == 1
