"""The organiser sets the think-time clock on the settings page: seconds per decision (blank:
the preset's default, JDF 20 s and none elsewhere; 0: no clock), what a time fault gives
(warning, forced pass, deduction) and the points a deduction takes. Refused values say why."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.clock import think_limit
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def post_settings(client: Client, tournament: Tournament, **changes: str) -> str:
    url = f"/organiser/{tournament.slug}/settings/"
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["undo_requires_approval"] = "on" if data.pop("undo_requires_approval") else ""
    response = client.post(url, {**data, **changes}, **HTMX)
    return response.content.decode()


def test_the_organiser_sets_the_limit_and_the_fault_rule(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    assert think_limit(tournament) == (20 if tournament.ruleset_id == "jdf" else None)
    page = client.get(f"/organiser/{tournament.slug}/settings/").content.decode()
    assert 'data-testid="clock-settings"' in page

    post_settings(
        client, tournament, think_seconds="30", time_fault_rule="penalty", time_fault_points="2"
    )

    tournament.refresh_from_db()
    assert (tournament.think_seconds, tournament.time_fault_rule, tournament.time_fault_points) == (
        30,
        "penalty",
        2,
    )
    assert think_limit(tournament) == 30

    post_settings(client, tournament, think_seconds="0")
    tournament.refresh_from_db()
    assert think_limit(tournament) is None


def test_a_limit_over_ten_minutes_is_refused(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    page = post_settings(client, tournament, think_seconds="601")
    tournament.refresh_from_db()
    assert tournament.think_seconds is None
    assert "0〜600" in page or "0 to 600" in page
