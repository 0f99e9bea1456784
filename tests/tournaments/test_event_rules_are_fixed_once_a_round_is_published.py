"""The event's rule switches may change while no round is published (a drawn draft included):
once one is, its games are played under them and a change is refused on the rules, explained
in English and Japanese."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.factories import RoundFactory
from tournaments import services
from tournaments.models import Round, Stage, Tournament

pytestmark = pytest.mark.django_db


def test_a_drawn_draft_leaves_the_rules_open(
    tournament: Tournament, organiser: User, stage: Stage
) -> None:
    RoundFactory(stage=stage, status=Round.Status.DRAFT)

    services.update_tournament_settings(
        tournament, organiser, ruleset_overrides={"eleven_back": "choice"}
    )

    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {"eleven_back": "choice"}


def test_a_published_round_fixes_the_rules(
    tournament: Tournament, organiser: User, stage: Stage
) -> None:
    RoundFactory(stage=stage, status=Round.Status.PUBLISHED, published_at=timezone.now())

    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(
            tournament, organiser, ruleset_overrides={"eleven_back": "choice"}
        )

    error = refused.value.errors["ruleset_overrides"]
    assert error.code == "round_published"
    assert error.message_en and error.message_ja != error.message_en
    tournament.refresh_from_db()
    assert tournament.ruleset_overrides == {}


def test_sending_the_same_rules_after_publishing_is_no_change(
    tournament: Tournament, organiser: User, stage: Stage
) -> None:
    tournament.ruleset_overrides = {"eleven_back": "choice"}
    tournament.save(update_fields=["ruleset_overrides"])
    RoundFactory(stage=stage, status=Round.Status.PUBLISHED, published_at=timezone.now())

    change = services.update_tournament_settings(
        tournament, organiser, ruleset_overrides={"eleven_back": "choice", "eight_cut": True}
    )

    assert not change.changed
