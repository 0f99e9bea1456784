"""Before two teams are ready the dashboard's draw preview of a team event says that two teams,
both players checked in, are needed — not the 大富豪 "3 players" — in English and Japanese."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import GuandanTournamentFactory, OfficialFactory, StageFactory, UserFactory
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def dashboard(language: str) -> str:
    organiser = UserFactory(username=f"gd-organiser-{language}")
    cup = GuandanTournamentFactory(slug=f"gd-preview-{language}")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    StageFactory(tournament=cup)
    client = Client(headers={"accept-language": language})
    client.force_login(organiser)
    return client.get(f"/organiser/{cup.slug}/").content.decode()


def test_a_team_event_without_teams_is_told_two_teams_are_needed() -> None:
    page = dashboard("en")

    assert "at least 2 teams, both players checked in, are needed for a table" in page
    assert "3 players" not in page


def test_it_says_so_in_japanese() -> None:
    assert "1卓には2チーム（両選手ともチェックイン済み）が必要です" in dashboard("ja")
