"""HTTP Basic (a password sent with every API request) authenticates nobody unless
`API_BASIC_AUTH=True`; when it is on, its wrong passwords count towards the sign-in lockout and a
locked-out name gets 429 with Retry-After, even with the right password."""

from __future__ import annotations

import base64

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import run_with_settings
from tests.factories import OfficialFactory, TournamentFactory, UserFactory
from tournaments.models import Official, Tournament


def basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.fixture
def organiser() -> User:
    user = UserFactory(username="sato", password="right-horse-battery")
    draft = TournamentFactory(slug="secret-cup", status=Tournament.Status.DRAFT)
    OfficialFactory(tournament=draft, user=user, role=Official.Role.ORGANISER)
    return user


@pytest.mark.django_db
def test_basic_credentials_are_ignored_by_default(organiser: User, client: Client) -> None:
    with_basic = client.get(
        "/api/tournaments/", HTTP_AUTHORIZATION=basic("sato", "right-horse-battery")
    )
    client.force_login(organiser)
    with_session = client.get("/api/tournaments/")

    assert [t["slug"] for t in with_basic.json()["results"]] == []  # seen as anonymous
    assert [t["slug"] for t in with_session.json()["results"]] == ["secret-cup"]


SCRIPT = """
import base64, json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth.models import User
from django.test import Client
from tests.factories import OfficialFactory, TournamentFactory
from tournaments.models import Official, Tournament

user = User.objects.create_user("sato", password="right-horse-battery")
draft = TournamentFactory(slug="secret-cup", status=Tournament.Status.DRAFT)
OfficialFactory(tournament=draft, user=user, role=Official.Role.ORGANISER)


def get(password):
    token = base64.b64encode(f"sato:{password}".encode()).decode()
    return Client().get("/api/tournaments/", HTTP_AUTHORIZATION="Basic " + token)


right = get("right-horse-battery")
wrong = [get("guess").status_code for _ in range(10)]
locked = get("right-horse-battery")
print(json.dumps({
    "right": [t["slug"] for t in right.json()["results"]],
    "wrong": wrong,
    "locked": [locked.status_code, locked.get("Retry-After")],
}))
"""


def test_when_asked_for_basic_works_and_locks_out_after_the_limit() -> None:
    seen = run_with_settings(SCRIPT, API_BASIC_AUTH="True")

    assert seen["right"] == ["secret-cup"]
    assert seen["wrong"][:9] == [403] * 9 and seen["wrong"][9] == 429  # LOGIN_FAILURE_LIMIT 10
    assert seen["locked"] == [429, "900"]
