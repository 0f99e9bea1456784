"""The tournament API sets the event's rule switches as the settings page does (a bad switch
refused under its own key, with its code) and shows them beside the pinned ruleset."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
JSON = {"content_type": "application/json"}


def test_11_back_as_a_choice_through_the_api(
    client: Client, tournament: Tournament, organiser: User
) -> None:
    client.force_login(organiser)
    url = f"/api/tournaments/{tournament.slug}/"

    refused = client.patch(url, {"ruleset_overrides": {"eleven_back": "sometimes"}}, **JSON)
    saved = client.patch(url, {"ruleset_overrides": {"eleven_back": "choice"}}, **JSON)
    shown = client.get(url).json()

    assert refused.status_code == 400
    field = refused.json()["fields"]["ruleset_overrides.eleven_back"]
    assert field["code"] == "switch_invalid" and "11バック" in field["message_ja"]
    assert saved.status_code == 200
    assert saved.json()["changed"]["ruleset_overrides"] == {
        "old": {},
        "new": {"eleven_back": "choice"},
    }
    assert (shown["ruleset"], shown["ruleset_overrides"]) == ("jdf@1", {"eleven_back": "choice"})
