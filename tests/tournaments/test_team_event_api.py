"""The API tells a team event apart (team size, match length and match points), lets an
organiser change the match settings with the settings page's refusals, and lists each
entrant's team."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import checked_in_teams
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_a_team_event_reads_as_one(client: Client, event: Tournament) -> None:
    body = client.get("/api/tournaments/kansai-guandan/").json()
    assert body["team_size"] == 2
    assert body["match_length"] == "to_ace"
    assert body["match_points"] == {"win": 2, "draw": 1, "loss": 0}


def test_the_match_settings_change_through_the_api_with_per_field_refusals(
    client: Client, organiser: User, event: Tournament
) -> None:
    client.force_login(organiser)
    refused = client.patch(
        "/api/tournaments/kansai-guandan/",
        {"match_length": "time", "match_points": {"win": 0, "draw": 1, "loss": 0}},
        JSON,
    )
    assert refused.status_code == 400
    assert {f: e["code"] for f, e in refused.json()["fields"].items()} == {
        "match_minutes": "match_minutes_required",
        "match_points": "match_points_invalid",
    }
    saved = client.patch(
        "/api/tournaments/kansai-guandan/", {"match_length": "time", "match_minutes": 50}, JSON
    )
    assert saved.status_code == 200
    assert saved.json()["changed"]["match_minutes"] == {"old": None, "new": 50}


def test_entries_name_their_team(client: Client, organiser: User, event: Tournament) -> None:
    checked_in_teams(event, 2)
    client.force_login(organiser)
    rows = client.get("/api/entries/?tournament=kansai-guandan").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    teams = {
        (r["number"], r["team"], r["team_name"])
        for r in rows
        if r["tournament"] == "kansai-guandan"
    }
    assert teams == {(1, 1, "Sakura"), (2, 1, "Sakura"), (3, 2, "Fuji"), (4, 2, "Fuji")}


def test_the_csv_preview_lists_the_teams_to_form(
    client: Client, organiser: User, event: Tournament
) -> None:
    client.force_login(organiser)
    text = "display_name,チーム\nA,Kaze\nB,Kaze\n"

    preview = client.post(
        "/api/entries/csv-preview/", {"tournament": "kansai-guandan", "text": text}, JSON
    ).json()

    assert preview["teams"] == [
        {"name": "Kaze", "number": 1, "lines": [2, 3], "members": ["A", "B"]}
    ]
    assert [r["team"] for r in preview["rows"]] == ["Kaze", "Kaze"]
    imported = client.post(
        "/api/entries/csv-import/",
        {"tournament": "kansai-guandan", "token": preview["token"]},
        JSON,
    )
    assert imported.status_code == 201
    assert event.teams.get().members.count() == 2
