"""The entrants section of a team event lists its teams with their members and adds, pairs,
renames and dissolves teams through htmx partials, in Japanese for a Japanese reader; other
people's tournaments are not found."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    checked_in_teams,
)
from tournaments.models import Official, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


HX = {"HTTP_HX_REQUEST": "true"}


def test_the_dashboard_lists_teams_with_their_members_in_japanese(
    client_of: Client, event: Tournament
) -> None:
    checked_in_teams(event, 2)

    page = client_of.get(f"/organiser/{event.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert 'data-testid="teams"' in page and 'data-testid="team-1"' in page
    assert "#1 Player 1" in page and "#2 Player 2" in page
    assert "チームを追加" in page


def test_a_daifugo_dashboard_has_no_teams(client: Client, organiser: User) -> None:
    daifugo = TournamentFactory()
    OfficialFactory(tournament=daifugo, user=organiser, role=Official.Role.ORGANISER)
    client.force_login(organiser)
    assert 'data-testid="teams"' not in client.get(f"/organiser/{daifugo.slug}/").content.decode()


def test_the_add_team_form_enters_two_players_as_a_team(
    client_of: Client, event: Tournament
) -> None:
    response = client_of.post(
        f"/organiser/{event.slug}/teams/add/",
        {"name": "桜", "first_name": "山田 花子", "second_name": "佐藤 健", "check_in": "on"},
        **HX,
    )
    assert response.status_code == 200
    assert 'data-testid="entries-done"' in response.content.decode()
    team = Team.objects.get(tournament=event)
    assert team.members.filter(status="checked_in").count() == 2


def test_a_refused_team_comes_back_in_the_form_in_japanese(
    client_of: Client, event: Tournament
) -> None:
    checked_in_teams(event, 1)
    response = client_of.post(
        f"/organiser/{event.slug}/teams/add/",
        {"name": "Sakura", "first_name": "A", "second_name": "B"},
        HTTP_ACCEPT_LANGUAGE="ja",
        **HX,
    )
    assert response.status_code == 422
    assert "チーム名「Sakura」はチーム 1 が使用中です" in response.content.decode()


def test_two_entrants_are_paired_renamed_and_dissolved(
    client_of: Client, event: Tournament
) -> None:
    a, b = (EntryFactory(tournament=event, number=n) for n in (1, 2))
    response = client_of.post(
        f"/organiser/{event.slug}/teams/pair/",
        {"name": "Kaze", "first": a.pk, "second": b.pk},
        **HX,
    )
    assert response.status_code == 200
    team = Team.objects.get(name="Kaze")

    form = client_of.get(f"/organiser/{event.slug}/teams/{team.pk}/rename/", **HX)
    assert 'name="name"' in form.content.decode()
    renamed = client_of.post(
        f"/organiser/{event.slug}/teams/{team.pk}/rename/", {"name": "Kaze 2"}, **HX
    )
    assert renamed.status_code == 200 and "Kaze 2" in renamed.content.decode()

    dissolved = client_of.post(f"/organiser/{event.slug}/teams/{team.pk}/dissolve/", **HX)
    assert dissolved.status_code == 200
    assert not Team.objects.exists()


def test_another_organisers_team_is_not_found(client: Client, event: Tournament) -> None:
    (team,) = checked_in_teams(event, 1)
    stranger = UserFactory(username="stranger")
    client.force_login(stranger)
    response = client.post(f"/organiser/{event.slug}/teams/{team.pk}/rename/", {"name": "X"})
    assert response.status_code == 404
    assert Team.objects.get().name == "Sakura"
