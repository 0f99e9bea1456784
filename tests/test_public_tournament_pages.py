"""The public sees published tournaments and their players; drafts stay private."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import EntryFactory, TournamentFactory
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_home_lists_published_tournaments_with_player_counts(client: Client) -> None:
    cup = TournamentFactory(name="Nagoya Open")
    EntryFactory.create_batch(3, tournament=cup)
    EntryFactory(tournament=cup, status=Entry.Status.DROPPED)

    page = client.get("/").content.decode()

    assert "Nagoya Open" in page
    assert '<td class="num">3</td>' in page  # dropped players are not counted


def test_draft_tournaments_are_hidden_from_pages_and_api(client: Client) -> None:
    TournamentFactory(name="Secret Draft", slug="secret", status=Tournament.Status.DRAFT)

    assert "Secret Draft" not in client.get("/").content.decode()
    assert client.get("/tournaments/secret/").status_code == 404
    assert client.get("/api/tournaments/").json()["results"] == []
    assert client.get("/api/tournaments/secret/").status_code == 404


def test_tournament_page_lists_its_players_in_entry_order(client: Client) -> None:
    cup = TournamentFactory(slug="cup")
    EntryFactory(tournament=cup, number=2, player__display_name="Second Sato")
    EntryFactory(tournament=cup, number=1, player__display_name="First Suzuki")

    page = client.get("/tournaments/cup/").content.decode()

    assert page.index("First Suzuki") < page.index("Second Sato")


def test_api_lists_tournaments_and_entries(client: Client) -> None:
    cup = TournamentFactory(slug="cup", ruleset_id="jdf", ruleset_version=1)
    EntryFactory(tournament=cup, number=1, player__display_name="Aoki")

    listing = client.get("/api/tournaments/").json()
    entries = client.get("/api/tournaments/cup/entries/").json()

    assert [t["slug"] for t in listing["results"]] == ["cup"]
    assert listing["results"][0]["ruleset"] == "jdf@1"
    assert listing["results"][0]["entry_count"] == 1
    assert entries == [{"number": 1, "player": "Aoki", "status": "registered"}]


def test_public_api_is_read_only(client: Client) -> None:
    TournamentFactory(slug="cup")

    response = client.post("/api/tournaments/", {"name": "Mine", "slug": "mine"})

    assert response.status_code in (403, 405)
    assert not Tournament.objects.filter(slug="mine").exists()


def test_openapi_schema_is_served(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert "/api/tournaments/" in response.json()["paths"]


def test_pages_load_htmx_from_our_own_static_files(client: Client) -> None:
    page = client.get("/").content.decode()

    assert "/static/django_htmx/htmx" in page
    assert "https://" not in page.split("<body")[0]  # no CDN in <head>


def test_the_public_pages_speak_japanese_to_a_japanese_browser(
    client: Client, client_ja: Client
) -> None:
    cup = TournamentFactory(slug="cup", name="Nagoya Open")
    EntryFactory(tournament=cup, number=1, player__display_name="First Suzuki")

    listing = client_ja.get("/tournaments/").content.decode()
    page = client_ja.get("/tournaments/cup/").content.decode()
    english = client.get("/tournaments/cup/").content.decode()

    assert "<th>会場</th>" in listing and "<th>Venue</th>" not in listing
    assert ">順位表(印刷用)</a>" in page and "Standings to print" not in page
    assert "参加者 (1)" in page and "Players (1)" not in page
    assert "Players (1)" in english and "Standings to print" in english
