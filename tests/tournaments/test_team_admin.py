"""The admin lists teams with their members, read only: teams are formed through the services."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import GuandanTournamentFactory, UserFactory, checked_in_teams

pytestmark = pytest.mark.django_db


def test_the_admin_shows_a_team_and_its_members_without_adding_any(client: Client) -> None:
    event = GuandanTournamentFactory()
    (team,) = checked_in_teams(event, 1)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))

    listing = client.get("/admin/tournaments/team/")
    detail = client.get(f"/admin/tournaments/team/{team.pk}/change/")

    assert listing.status_code == 200 and "Sakura" in listing.content.decode()
    assert "Player 1" in detail.content.decode() and "Player 2" in detail.content.decode()
    assert client.get("/admin/tournaments/team/add/").status_code == 403
