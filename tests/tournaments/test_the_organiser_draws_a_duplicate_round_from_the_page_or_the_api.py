"""The organiser chooses duplicate deals when drawing (docs/duplicate.md): the dashboard's draw
form has the box, a redraw keeps or drops it, and the draw API takes `duplicate_deals`."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def test_the_dashboard_draws_a_duplicate_round_and_a_redraw_may_drop_it(
    tournament: Tournament, stage: Stage, organiser: User, client: Client
) -> None:
    checked_in(tournament, 8)
    client.force_login(organiser)
    dashboard = client.get(f"/organiser/{tournament.slug}/").content.decode()
    assert 'name="duplicate_deals"' in dashboard

    client.post(
        reverse("organiser:draw", args=[tournament.slug, stage.pk]), {"duplicate_deals": "1"}
    )
    drawn = Round.objects.get(stage=stage)
    page = client.get(reverse("organiser:round", args=[tournament.slug, drawn.pk])).content.decode()
    client.post(reverse("organiser:draw", args=[tournament.slug, stage.pk]))

    assert drawn.duplicate_deals
    assert 'data-testid="duplicate-round"' in page
    assert not Round.objects.get(stage=stage).duplicate_deals


def test_the_draw_api_takes_duplicate_deals(
    tournament: Tournament, stage: Stage, organiser: User, client: Client
) -> None:
    checked_in(tournament, 8)
    client.force_login(organiser)

    answer = client.post(
        f"/api/stages/{stage.pk}/draw/", {"duplicate_deals": True}, content_type="application/json"
    )

    assert answer.status_code == 201, answer.content
    assert answer.json()["duplicate_deals"] is True
