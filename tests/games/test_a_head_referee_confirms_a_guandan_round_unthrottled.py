"""A head referee confirming a 掼蛋 round's 40 hands through the API, one after another with
their own account (no PIN), is never throttled: only requests that carry a table PIN count
towards the table-PIN rate (30 a minute per user)."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import DeviceApi, OfficialFactory, UserFactory, guandan_hand, guandan_table
from tournaments.models import Official

pytestmark = pytest.mark.django_db

HANDS = 40  # more than the table-PIN rate's 30


def test_forty_hands_are_confirmed_without_a_429() -> None:
    table = guandan_table(UserFactory(username="ref-ito"), games_per_set=HANDS)
    head = UserFactory(username="head-endo")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE
    )
    games = [guandan_hand(table, hand, ("2", "2"), confirmed=False) for hand in range(1, HANDS + 1)]
    phone = DeviceApi(head)

    answers = [phone.post(f"games/{game.pk}/confirm/") for game in games]

    assert [a.status_code for a in answers] == [200] * HANDS
    assert Game.objects.filter(table=table, status=Game.Status.CONFIRMED).count() == HANDS
