"""The API: a read-only public tier over published data; organisers write through services."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry, Round, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def test_an_organiser_registers_checks_in_draws_and_publishes_through_the_api(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    client.force_login(organiser)
    checked_in(tournament, 7)

    created = client.post(
        "/api/entries/",
        {"tournament": "nagoya-open", "display_name": "Aoki", "name_kana": "あおき"},
        content_type="application/json",
    )
    entry_id = created.json()["id"]
    checked = client.post(f"/api/entries/{entry_id}/check-in/", {}, "application/json")
    drawn = client.post(f"/api/stages/{stage.pk}/draw/")
    round_id = drawn.json()["id"]
    published = client.post(f"/api/rounds/{round_id}/publish/")

    assert created.status_code == 201
    assert created.json()["number"] == 8
    assert checked.json()["status"] == Entry.Status.CHECKED_IN
    assert drawn.status_code == 201
    assert drawn.json()["seed"] is None
    assert published.json()["status"] == Round.Status.PUBLISHED
    assert len(published.json()["seed_commitment"]) == 64


def test_the_public_reads_published_rounds_and_tables_with_seats(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)

    rounds = client.get("/api/rounds/").json()["results"]
    tables = client.get("/api/tables/").json()["results"]

    assert [r["id"] for r in rounds] == [round_.pk]
    assert len(tables) == 2
    assert [len(t["seats"]) for t in tables] == [4, 4]
    assert {"position", "entry_number", "player"} == set(tables[0]["seats"][0])


def test_the_public_cannot_write(client: Client, tournament: Tournament, stage: Stage) -> None:
    checked_in(tournament, 8)

    assert client.post(f"/api/stages/{stage.pk}/draw/").status_code == 403
    assert client.post("/api/entries/", {"tournament": "nagoya-open"}).status_code == 403
    assert not Round.objects.exists()


def test_an_organiser_sees_their_own_draft_tournament_but_nobody_elses(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    TournamentFactory(slug="other-draft", status=Tournament.Status.DRAFT)
    client.force_login(organiser)

    slugs = [t["slug"] for t in client.get("/api/tournaments/").json()["results"]]

    assert slugs == ["nagoya-open"]


def test_domain_errors_come_back_as_400_with_their_code_and_messages(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    client.force_login(organiser)
    checked_in(tournament, 2)

    response = client.post(f"/api/stages/{stage.pk}/draw/")

    assert response.status_code == 400
    assert {"code", "message_en", "message_ja", "detail"} <= response.json().keys()
    assert "at least 3 players" in response.json()["message_en"]


def test_the_schema_lists_the_new_endpoints(client: Client) -> None:
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()[
        "paths"
    ]

    for path in [
        "/api/stages/{id}/draw/",
        "/api/rounds/{id}/publish/",
        "/api/rounds/{id}/reveal/",
        "/api/tables/",
        "/api/entries/{id}/check-in/",
    ]:
        assert path in paths
