"""A substitute (補欠) for a team member plays in that member's team: the pair is paired again
with the substitute, who sits where the member sat; an entrant of another team cannot stand in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import StageFactory, checked_in_teams
from tournaments import services
from tournaments.models import Seat, Tournament

pytestmark = pytest.mark.django_db


def test_a_new_substitute_joins_the_pair_and_the_pair_is_drawn(
    organiser: User, event: Tournament
) -> None:
    stage = StageFactory(tournament=event, order=1)
    teams = checked_in_teams(event, 2)
    member = teams[0].members.order_by("number").first()

    sub = services.substitute_entry(member, organiser, display_name="Stand-in", reason="ill")

    assert sub.team_id == teams[0].pk
    round_ = services.draw_round(stage, organiser)
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert sub.pk in seated and member.pk not in seated and len(seated) == 4


def test_a_member_of_another_team_cannot_stand_in(organiser: User, event: Tournament) -> None:
    first, second = checked_in_teams(event, 2)
    member = first.members.order_by("number").first()
    other = second.members.order_by("number").first()

    with pytest.raises(services.DomainError) as refused:
        services.substitute_entry(member, organiser, substitute=other, reason="ill")

    assert refused.value.code == "substitute_in_other_team"
    member.refresh_from_db()
    assert member.status == "checked_in"
