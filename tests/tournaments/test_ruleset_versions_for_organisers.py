"""The organiser's preset list names each version of a preset that has several (gekijo@1/@2,
uecda@1/@2), with what the later one adds, in English and Japanese; a tournament created from
uecda@2 pins it, and one pinned to uecda@1 stays there."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.factories import UserFactory
from tournaments.models import Tournament
from tournaments.rulesets import check_ruleset, ruleset_choices, team_size

pytestmark = pytest.mark.django_db


def test_every_version_is_offered_and_named() -> None:
    with translation.override("en"):
        choices = dict(ruleset_choices())
    assert {"gekijo@1", "gekijo@2", "uecda@1", "uecda@2", "jdf@1", "local@1"} <= set(choices)
    assert choices["uecda@1"].endswith("— version 1")
    assert "version 2" in choices["uecda@2"] and "last player may follow" in choices["uecda@2"]
    assert "misplays (punrī)" in choices["gekijo@2"]
    assert "version" not in choices["jdf@1"]  # one version only: no number
    with translation.override("ja"):
        ja = dict(ruleset_choices())
    assert "第2版" in ja["gekijo@2"] and "プンリー" in ja["gekijo@2"]
    assert "version" not in ja["uecda@2"]


def test_the_create_form_starts_on_the_official_rules(client: Client) -> None:
    client.force_login(UserFactory(username="staff", is_staff=True))
    page = client.get("/organiser/").content.decode()
    assert '<option value="jdf@1" selected>' in page
    assert '<option value="gekijo@1" selected>' not in page


def test_a_tournament_pins_the_version_chosen(client: Client) -> None:
    client.force_login(UserFactory(username="staff", is_staff=True))
    response = client.post(
        "/organiser/",
        {
            "name": "UEC Cup",
            "slug": "uec-cup",
            "ruleset": "uecda@2",
            "points_preset": "3-2-1-0",
            "games_per_set": 4,
            "sets_per_round": 3,
            "table_size": 5,
            "uneven_tables": "short",
            "bye_points": 0,
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="uec-cup")
    assert (tournament.ruleset_id, tournament.ruleset_version) == ("uecda", 2)
    assert tournament.ruleset_label == "uecda@2"
    assert check_ruleset("uecda", 2).last_player_may_follow
    assert not check_ruleset("uecda", 1).last_player_may_follow


def test_guandan_presets_are_offered_and_play_in_pairs() -> None:
    # 掼蛋 (Guandan) is offered under its own names, and its tournaments play in pairs.
    with translation.override("en"):
        choices = dict(ruleset_choices())
    assert choices["guandan-cn@1"] == "Guandan competition rules (China)"
    assert choices["guandan-pagat@1"] == "Guandan as described at pagat.com"
    assert check_ruleset("guandan-cn", 1).family == "guandan"
    assert team_size("guandan-cn", 1) == 2
    assert team_size("jdf", 1) is None
