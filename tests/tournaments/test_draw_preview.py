"""The organiser dashboard previews the next draw of each stage for the checked-in players
under the uneven-tables policy, lets the organiser change the policy right there (htmx, 422 on
a refusal), and the draw then gives exactly what the preview said."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import AuditEntry, Bye, Stage, Tournament
from tournaments.selectors import draw_layout

from .conftest import checked_in

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organiser_client(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def test_the_dashboard_previews_the_tables_for_the_checked_in_players(
    organiser_client: Client, tournament: Tournament, stage: Stage
) -> None:
    checked_in(tournament, 22)

    page = organiser_client.get("/organiser/nagoya-open/").content.decode()

    assert "22 players → 4 tables of 4 + 2 tables of 3" in page
    assert "22名 → 4人卓 4卓 + 3人卓 2卓" not in page


def test_the_preview_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    client_ja.force_login(organiser)
    checked_in(tournament, 22)

    page = client_ja.get("/organiser/nagoya-open/").content.decode()

    assert "22名 → 4人卓 4卓 + 3人卓 2卓" in page
    assert "次の抽選" in page and "次の回戦を抽選" in page
    assert "22 players" not in page and "Next draw" not in page
    assert "Draw next round" not in page and "Stages and rounds" not in page


def test_byes_show_their_points_in_the_preview(
    organiser_client: Client, tournament: Tournament, stage: Stage
) -> None:
    tournament.uneven_tables, tournament.bye_points = "byes", 6
    tournament.save()
    checked_in(tournament, 22)

    page = organiser_client.get("/organiser/nagoya-open/").content.decode()

    assert "22 players → 5 tables of 4 + 2 byes" in page
    assert "(bye scores 6 points)" in page


def test_choosing_tables_of_five_with_htmx_updates_the_preview_and_the_draw_follows(
    organiser_client: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 18)
    url = f"/organiser/nagoya-open/stages/{stage.pk}/uneven-tables/"

    response = organiser_client.post(url, {"uneven_tables": "long", "bye_points": 0}, **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<div class="draw-layout"')  # the partial, not the page
    assert "18 players → 2 tables of 5 + 2 tables of 4" in page
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SETTINGS_CHANGED).exists()
    round_ = services.draw_round(stage, organiser)
    sizes = [t.seats.count() for t in round_.tables.order_by("number")]
    assert sizes == list(draw_layout(Stage.objects.get(pk=stage.pk)).sizes) == [5, 5, 4, 4]


def test_the_fallback_is_explained_in_the_preview(
    organiser_client: Client, tournament: Tournament, stage: Stage
) -> None:
    tournament.uneven_tables = "long"
    tournament.save()
    checked_in(tournament, 11)

    page = organiser_client.get(f"/organiser/nagoya-open/stages/{stage.pk}/layout/").content
    text = page.decode()

    assert "11 players → 2 tables of 4 + 1 table of 3" in text
    assert "Tables of 5 cannot seat 11 players" in text


def test_a_policy_changed_after_a_round_is_published_applies_to_the_next_draw(
    organiser_client: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 9)
    services.publish_round(services.draw_round(stage, organiser), organiser)
    url = f"/organiser/nagoya-open/stages/{stage.pk}/uneven-tables/"

    response = organiser_client.post(url, {"uneven_tables": "byes", "bye_points": 3}, **HTMX)

    assert response.status_code == 200
    assert "applies to rounds drawn from now on" in response.content.decode()
    assert "9 players → 2 tables of 4 + 1 bye" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).uneven_tables == "byes"


def test_a_plain_form_post_redirects_to_the_dashboard(
    organiser_client: Client, tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 9)
    url = f"/organiser/nagoya-open/stages/{stage.pk}/uneven-tables/"

    response = organiser_client.post(url, {"uneven_tables": "byes", "bye_points": 4})

    assert response.status_code == 302
    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.uneven_tables, saved.bye_points) == ("byes", 4)
    round_ = services.draw_round(stage, organiser)
    assert list(Bye.objects.filter(round=round_).values_list("points", flat=True)) == [4]


def test_another_organisers_stage_is_not_found(
    client: Client, tournament: Tournament, stage: Stage
) -> None:
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="stranger"))
    url = f"/organiser/nagoya-open/stages/{stage.pk}/uneven-tables/"

    assert client.post(url, {"uneven_tables": "long", "bye_points": 0}).status_code == 404
    assert Tournament.objects.get(pk=tournament.pk).uneven_tables == "short"
