"""A team event's round waits for each table's match, not for a fixed number of games: a
match won at A (or played to its hands) settles its table; a table whose match goes on
blocks the round with its next hand."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import (
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    checked_in_teams,
    finished_match,
)
from tournaments import services
from tournaments.models import Official, Round
from tournaments.selectors import round_blockers

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(organiser: User) -> Round:
    cup = GuandanTournamentFactory(match_length="hands", games_per_set=6)
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    stage = StageFactory(tournament=cup, order=1)
    checked_in_teams(cup, 4)
    return services.publish_round(services.draw_round(stage, organiser), organiser)


def test_a_match_still_going_blocks_with_its_next_hand(published: Round) -> None:
    first, second = published.tables.order_by("number")
    finished_match(first, levels=("A", "5"), winner=0, hands=3)  # won at A: over
    finished_match(second, levels=("6", "4"), hands=2)  # 2 of 6 hands: goes on

    blockers = round_blockers(published)

    assert [(b.table, b.game_number, b.code) for b in blockers] == [(2, 3, "not_started")]
    with pytest.raises(services.RoundBlocked):
        services.complete_round(published, published.stage.tournament.officials.get().user)


def test_the_round_completes_once_every_match_is_over(published: Round, organiser: User) -> None:
    first, second = published.tables.order_by("number")
    finished_match(first, levels=("A", "5"), winner=0, hands=3)
    finished_match(second, levels=("6", "4"), hands=6)  # all its hands played

    assert round_blockers(published) == []
    assert services.complete_round(published, organiser).status == Round.Status.COMPLETE
