"""Organiser pages: create from a preset, import CSV, check in (htmx), draw, publish, print."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Entry, Official, Round, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_staff_create_a_tournament_from_a_preset(client: Client) -> None:
    client.force_login(UserFactory(username="staff", is_staff=True))

    response = client.post(
        "/organiser/",
        {
            "name": "Kobe Open",
            "slug": "kobe-open",
            "ruleset": "jdf@1",
            "points_preset": "3-2-1-0",
            "games_per_set": 4,
            "sets_per_round": 3,
            "table_size": 4,
            "uneven_tables": "short",
            "bye_points": 0,
        },
    )

    assert response.status_code == 302
    assert response["Location"] == "/organiser/kobe-open/"
    assert Tournament.objects.get(slug="kobe-open").ruleset_label == "jdf@1"


def test_importing_a_csv_with_htmx_returns_the_entries_partial(
    logged_in: Client, tournament: Tournament
) -> None:
    upload = SimpleUploadedFile("entrants.csv", b"display_name,name_kana\nAoki,\xe3\x81\x82\n")

    response = logged_in.post("/organiser/nagoya-open/import/", {"file": upload}, **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="entries">')  # the partial, not the page
    assert "Imported 1 entrant." in page
    assert "Aoki" in page


def test_a_bad_csv_lists_errors_per_row_and_imports_nothing(
    logged_in: Client, tournament: Tournament
) -> None:
    upload = SimpleUploadedFile("entrants.csv", b"number,display_name\n1,Aoki\nx,\n")

    response = logged_in.post("/organiser/nagoya-open/import/", {"file": upload}, **HTMX)

    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing was imported" in page
    assert "is not a whole number of 1 or more." in page
    assert "Required." in page
    assert not tournament.entries.exists()


def test_check_in_toggles_with_htmx_and_returns_the_row(
    logged_in: Client, tournament: Tournament, organiser: User
) -> None:
    entry = services.register_entry(tournament, organiser, display_name="Aoki")
    url = f"/organiser/nagoya-open/entries/{entry.pk}/check-in/"

    first = logged_in.post(url, **HTMX)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert first.content.decode().lstrip().startswith(f'<tr id="entry-{entry.pk}"')
    assert "Undo check-in" in first.content.decode()

    logged_in.post(url, **HTMX)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_draw_preview_shows_explanations_then_publish(
    logged_in: Client, tournament: Tournament, stage: Stage
) -> None:
    checked_in(tournament, 8)

    drawn = logged_in.post(f"/organiser/nagoya-open/stages/{stage.pk}/draw/")
    round_ = Round.objects.get()
    preview = logged_in.get(drawn["Location"]).content.decode()
    logged_in.post(f"/organiser/nagoya-open/rounds/{round_.pk}/publish/")

    assert drawn["Location"] == f"/organiser/nagoya-open/rounds/{round_.pk}/"
    assert "Table 1: random draw by lot." in preview and "(抽選)" not in preview
    assert "Publish round" in preview
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_htmx_draw_redirects_the_client(
    logged_in: Client, tournament: Tournament, stage: Stage
) -> None:
    checked_in(tournament, 8)

    response = logged_in.post(f"/organiser/nagoya-open/stages/{stage.pk}/draw/", **HTMX)

    assert response["HX-Redirect"].startswith("/organiser/nagoya-open/rounds/")


def test_table_cards_print_seats_referee_and_a_qr_code_to_the_referee_page(
    logged_in: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    referee = UserFactory(username="referee-kato")
    services.add_official(tournament, organiser, referee, Official.Role.REFEREE)
    table = round_.tables.get(number=1)
    services.assign_referee(table, organiser, referee)

    page = logged_in.get(f"/organiser/nagoya-open/rounds/{round_.pk}/cards/").content.decode()

    assert page.count('<article class="table-card">') == 2
    assert page.count("<svg") == 2
    assert f"http://testserver/referee/tables/{table.pk}/" in page
    assert "referee-kato" in page
    assert "@media print" not in page  # the print rules live in site.css
    for seat in table.seats.select_related("entry__player"):
        assert f"#{seat.entry.number}" in page
        assert seat.entry.player.display_name in page


def void_every_game(round_: Round, official: User) -> None:
    """Settle a round with no result at all: each game started and voided (not re-dealt)."""
    for table in round_.tables.all():
        while True:
            try:
                game = game_services.start_game(table, official, mode=Game.Mode.QUICK)
            except game_services.GameError:
                break
            game_services.void_game(game, official, reason="hall closed", redeal=False)


def test_advancing_with_a_tie_asks_for_an_explicit_order(
    logged_in: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    stage.advance_top_n = 2
    stage.save()
    services.add_stage(tournament, organiser, name="Final", kind=Stage.Kind.FINAL)
    checked_in(tournament, 4)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    void_every_game(round_, organiser)
    services.reveal_round_seed(round_, organiser)
    url = f"/organiser/nagoya-open/stages/{stage.pk}/advance/"

    tied = logged_in.post(url)  # every game was void: every total is 0, all four tie
    settled = logged_in.post(url, {"tie_break": "3 1 4 2"})

    assert tied.status_code == 422
    assert "4 entrants tie for 2 places: #1, #2, #3, #4" in tied.content.decode()
    assert settled.status_code == 302
    final = tournament.stages.get(order=2)
    assert sorted(final.entrants.values_list("entry__number", flat=True)) == [1, 3]
