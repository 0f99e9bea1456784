"""The console's Guandan quick form hands its "aces only" box to the games service
(`record_quick_result(..., aces_only=...)`): under `guandan-pagat` a team at A beaten by a
finish on aces only goes back to level 2; under rules without it the box is refused with its
code, and nothing is recorded."""

from __future__ import annotations

import pytest

from games.engine.guandan import ACE, Match
from games.models import Game
from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Team 1 plays at A (it declared); team 0 is at 5.
TEAM_1_AT_A = Match(levels=(5, ACE), previous=(1, 3, 0, 2))


def test_a_finish_on_aces_only_sends_the_team_at_a_back_to_two() -> None:
    _, table, game, client = guandan_console(
        mode="quick", ruleset_id="guandan-pagat", match=TEAM_1_AT_A
    )

    client.post(
        f"/referee/tables/{table.pk}/quick/",
        {"place_1": "0", "place_2": "2", "aces_only": "1"},
        **HTMX,
    )

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    team_1 = game.results.filter(team=1)
    assert {
        (r.detail["team_level"], r.detail["demoted"], r.detail["aces_only"]) for r in team_1
    } == {("2", True, True)}


def test_the_box_is_refused_under_rules_without_it() -> None:
    _, table, game, client = guandan_console(mode="quick", match=TEAM_1_AT_A)

    page = client.post(
        f"/referee/tables/{table.pk}/quick/",
        {"place_1": "0", "place_2": "2", "aces_only": "1"},
        **HTMX,
    )

    assert "aces_only_not_in_rules" in page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
