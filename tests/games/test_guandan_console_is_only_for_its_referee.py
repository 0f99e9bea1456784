"""A Guandan table's console and its actions belong to its officials: another table's referee
gets no page and changes nothing, as for every table."""

from __future__ import annotations

import pytest

from tests.factories import (
    GUANDAN_SMALL_HANDS,
    OfficialFactory,
    UserFactory,
    browser,
    guandan_console,
)
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def test_a_referee_of_another_table_sees_no_hand_and_plays_nothing() -> None:
    _, table, game, _ = guandan_console(hands=GUANDAN_SMALL_HANDS)
    stranger = UserFactory(username="ref-elsewhere")
    tournament = table.round.stage.tournament
    OfficialFactory(tournament=tournament, user=stranger, role=Official.Role.REFEREE)
    client = browser()
    client.force_login(stranger)

    page = client.get(f"/referee/tables/{table.pk}/")
    play = client.post(
        f"/referee/tables/{table.pk}/play/", {"seq": 1, "seat": 0, "cards": ["3C", "3D"]}
    )

    assert page.status_code == 403 and play.status_code == 403
    assert "3C" not in page.content.decode()
    game.refresh_from_db()
    assert game.last_seq == 0
