"""A completed round's page says where to go next: the dashboard's block of its stage, where
the next round is drawn or the stage advances."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import play_round_quickly
from tournaments import services
from tournaments.models import Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def test_only_a_settled_round_points_to_the_next_step(
    client: Client, tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=1, sets_per_round=1)
    checked_in(tournament, 4)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    client.force_login(organiser)
    url = f"/organiser/{tournament.slug}/rounds/{round_.pk}/"
    assert 'data-testid="next-step"' not in client.get(url).content.decode()

    play_round_quickly(round_, organiser, head_referee)
    services.complete_round(round_, organiser)

    page = client.get(url).content.decode()
    assert f'href="/organiser/{tournament.slug}/#stage-{stage.pk}" data-testid="next-step"' in page
