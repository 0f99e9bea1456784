"""Duplicate deals are for 大富豪 rounds (docs/duplicate.md): a playoff, a 掼蛋 team event and a
大財閥 event refuse them with a code and both languages; a redraw of the draft may change it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import (
    DAIZAIBATSU_SET,
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    UserFactory,
    duplicate_round,
)
from tournaments.models import Official, Round, Tournament
from tournaments.services import DomainError, draw_round

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def refusal(stage: object, organiser: User) -> DomainError:
    with pytest.raises(DomainError) as refused:
        draw_round(stage, organiser, duplicate_deals=True)  # type: ignore[arg-type]
    return refused.value


def test_a_playoff_refuses_duplicate_deals() -> None:
    round_, organiser = duplicate_round(8)
    assert isinstance(organiser, User)
    playoff = StageFactory(
        tournament=round_.stage.tournament, order=2, kind="playoff", playoff_for=round_.stage
    )

    error = refusal(playoff, organiser)

    assert error.code == "duplicate_in_playoff"
    assert "順位決定戦" in error.message_ja


def test_a_pile_game_event_refuses_duplicate_deals() -> None:
    round_, organiser = duplicate_round(8)
    assert isinstance(organiser, User)
    Tournament.objects.filter(pk=round_.stage.tournament_id).update(
        ruleset_id="daizaibatsu", ruleset_overrides=DAIZAIBATSU_SET
    )
    Round.objects.filter(pk=round_.pk).delete()

    error = refusal(round_.stage, organiser)

    assert error.code == "duplicate_not_supported"
    assert "大財閥" in error.message_ja


def test_a_team_event_refuses_duplicate_deals() -> None:
    organiser = UserFactory(username="guandan-organiser")
    event = GuandanTournamentFactory(name="Guandan Cup", slug="guandan-cup")
    OfficialFactory(tournament=event, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=event, order=1)

    error = refusal(stage, organiser)

    assert error.code == "duplicate_not_supported"
    assert "掼蛋" in error.message_ja


def test_a_redraw_of_the_draft_may_drop_duplicate_deals() -> None:
    organiser = UserFactory(username="redraw-organiser")
    from tests.factories import TournamentFactory

    cup = TournamentFactory()
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=cup, order=1)
    checked_in(cup, 8)

    assert draw_round(stage, organiser, duplicate_deals=True).duplicate_deals
    redrawn = draw_round(stage, organiser)

    assert not redrawn.duplicate_deals
    assert list(stage.rounds.values_list("duplicate_deals", flat=True)) == [False]
