"""The title-reset and seat-change cycles are a number of games from 1, or blank for never:
0 or a negative number is refused with a clear error by the service (and so the settings page
and the API), and by the database itself."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from tests.factories import TournamentFactory
from tournaments import services
from tournaments.models import Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.mark.parametrize("field", ["title_reset_every", "seat_change_every"])
@pytest.mark.parametrize("value", [0, -3])
def test_the_service_refuses_zero_or_less(
    tournament: Tournament, organiser: User, field: str, value: int
) -> None:
    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, organiser, **{field: value})

    error = refused.value.errors[field]
    assert error.code == "invalid"
    assert "give a number of games from 1 to 1000, or leave it blank for never" in error.message_en
    assert "1〜1000のゲーム数" in error.message_ja
    tournament.refresh_from_db()
    assert getattr(tournament, field) is None


def test_the_settings_page_explains_the_refusal(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    client.force_login(organiser)
    url = f"/organiser/{tournament.slug}/settings/"
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""

    refused = client.post(
        url, {**data, "seat_change_every": "0"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )

    assert refused.status_code == 422
    assert "Seats change every: give a number of games from 1 to 1000" in refused.content.decode()


def test_the_api_refuses_zero_per_field(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    client.force_login(organiser)

    refused = client.patch(f"/api/tournaments/{tournament.slug}/", {"title_reset_every": 0}, JSON)

    assert refused.status_code == 400
    assert refused.json()["fields"]["title_reset_every"]["code"] == "invalid"


@pytest.mark.parametrize("field", ["title_reset_every", "seat_change_every"])
def test_the_database_refuses_zero(field: str) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentFactory(**{field: 0})


def test_games_per_set_is_capped_at_200(tournament: Tournament, organiser: User) -> None:
    services.update_tournament_settings(tournament, organiser, games_per_set=100)

    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, organiser, games_per_set=201)

    assert "from 1 to 200" in refused.value.errors["games_per_set"].message_en


def test_cycles_are_fixed_once_a_round_is_published(
    tournament: Tournament, organiser: User, stage: Stage
) -> None:
    checked_in(tournament, 8)
    services.publish_round(services.draw_round(stage, organiser), organiser)

    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, organiser, seat_change_every=3)

    assert refused.value.errors["seat_change_every"].code == "round_published"
