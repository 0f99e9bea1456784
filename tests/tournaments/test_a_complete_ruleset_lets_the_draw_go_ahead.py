"""Drawing and publishing wait for a ruleset whose every switch has a value
(`ruleset_incomplete` otherwise). Every 大富豪 and 掼蛋 ruleset is complete, pinned values or
not, so their events draw and publish as before."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.models import Round, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def test_an_event_with_pinned_switches_draws_and_publishes(
    tournament: Tournament, organiser: User, stage: Stage
) -> None:
    services.update_tournament_settings(
        tournament, organiser, ruleset_overrides={"eleven_back": "choice", "miyako_ochi": False}
    )
    checked_in(tournament, 8)

    assert services.unset_switches(tournament) == ()
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)

    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
