"""A record must be played under the tournament's pinned ruleset, preset, version and switch
values alike (`ruleset_mismatch`, naming both): a gekijo game is not a JDF game, nor is a JDF
game with a switch the event did not set."""

from __future__ import annotations

import pytest

from games.imports import import_records
from games.models import Game
from tests.factories import engine_record

from .conftest import Crew

pytestmark = pytest.mark.django_db


def test_a_record_of_another_preset_is_refused(crew: Crew) -> None:
    [outcome] = import_records(crew.table, crew.organiser, [engine_record(rules="gekijo@1")])

    assert (outcome.status, outcome.code, outcome.key) == ("refused", "ruleset_mismatch", "rules")
    assert "gekijo@1" in outcome.message_en and "jdf@1" in outcome.message_en
    assert not Game.objects.exists()


def test_a_record_with_a_switch_the_event_did_not_set_is_refused(crew: Crew) -> None:
    record = engine_record("overridden")
    record["rules"] = {"preset": "jdf@1", "overrides": {"eight_cut": False}}

    [outcome] = import_records(crew.table, crew.organiser, [record])

    assert (outcome.status, outcome.code) == ("refused", "ruleset_mismatch")
    assert "eight_cut" in outcome.message_en
    assert not Game.objects.exists()


def test_the_events_own_switch_values_are_what_a_record_must_carry(crew: Crew) -> None:
    crew.tournament.ruleset_overrides = {"eight_cut": False}
    crew.tournament.save()
    plain = engine_record("plain")

    [outcome] = import_records(crew.table, crew.organiser, [plain])

    assert (outcome.status, outcome.code) == ("refused", "ruleset_mismatch")
