"""The organiser's preset list names each version of a preset that has several (gekijo@1/@2,
uecda@1/@2), with what the later one adds, in English and Japanese; a tournament created from
uecda@2 pins it, and one pinned to uecda@1 stays there."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from tests.factories import UserFactory
from tournaments.models import Tournament
from tournaments.rulesets import check_ruleset, ruleset_choices

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


def test_guandan_presets_are_not_offered_to_organisers_yet() -> None:
    # The engine registers 掼蛋 (Guandan), but the service has no partnerships yet, so its
    # presets are neither offered nor accepted for a tournament, and add no tie-breaks.
    from games.engine import find_ruleset
    from tournaments.points import TIE_BREAK_KEYS

    assert find_ruleset("guandan-cn").family == "guandan"
    with translation.override("en"):
        choices = dict(ruleset_choices())
    assert not [key for key in choices if key.startswith("guandan")]
    with pytest.raises(ValidationError):
        check_ruleset("guandan-cn", 1)
    assert "level_gain" not in TIE_BREAK_KEYS and "matches_won" not in TIE_BREAK_KEYS
