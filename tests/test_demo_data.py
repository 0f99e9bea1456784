"""`load_demo` gives a newcomer a published 8-player tournament and a login, idempotently."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from tournaments.models import Entry, Official, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development_machine(settings: Settings) -> None:
    settings.DEBUG = True  # as `./dev serve` runs it; the test runner turns DEBUG off


def test_demo_has_a_published_tournament_with_eight_checked_in_players() -> None:
    call_command("load_demo", verbosity=0)

    tournament = Tournament.objects.get(slug="demo-cup")
    assert tournament.status != Tournament.Status.DRAFT
    assert tournament.entries.filter(status=Entry.Status.CHECKED_IN).count() == 8
    assert sorted(tournament.entries.values_list("number", flat=True)) == list(range(1, 9))


def test_demo_organiser_can_log_in_and_organises_the_demo() -> None:
    call_command("load_demo", verbosity=0)

    # As the login form does: with the request (the sign-in lockout counts per address).
    request = RequestFactory().post("/accounts/login/")
    user = authenticate(request, username="organiser", password="kakumei-demo")

    assert user is not None
    assert (
        Tournament.objects.get(slug="demo-cup")
        .officials.filter(user=user, role=Official.Role.ORGANISER)
        .exists()
    )


def test_loading_the_demo_twice_changes_nothing() -> None:
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)

    assert Tournament.objects.filter(slug="demo-cup").count() == 1
    assert Entry.objects.filter(tournament__slug="demo-cup").count() == 8


def test_demo_login_is_refused_outside_debug(settings: Settings) -> None:
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo", verbosity=0)
    assert not Tournament.objects.exists()


def test_the_demo_simulation_is_rated_in_the_demo_league(
    django_capture_on_commit_callbacks: Any,
) -> None:
    call_command("load_demo", verbosity=0)
    # As `./dev serve` runs it (its outbox's tasks run eagerly on commit).
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "simulate_tournament",
            slug="demo-simulated",
            players=8,
            rounds=1,
            sets=1,
            rated=True,
            season="demo-league/2026",
            verbosity=0,
        )
    simulated = Tournament.objects.get(slug="demo-simulated")
    assert simulated.season == Tournament.objects.get(slug="demo-cup").season
    page = Client().get(reverse("scoring:league_ratings", args=["demo-league"])).content.decode()
    assert page.count("<tr>") == 1 + 8  # the head, and every simulated player rated
