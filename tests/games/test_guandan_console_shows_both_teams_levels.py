"""Both teams' levels are on the console: the registered teams' names and members (partners
facing: positions 1 and 3 against 2 and 4) or "Team A" / "Team B", which team declares, the
failed attempts at A; and the partners sit facing each other on the table diagram."""

from __future__ import annotations

import re

import pytest

from games.engine.guandan import Match
from tests.factories import GUANDAN_SMALL_HANDS, guandan_console

pytestmark = pytest.mark.django_db


def team_box(page: str, index: int) -> str:
    start = page.index(f'data-testid="team-{index}"')
    return page[start : page.index("</div>", start)]


def test_registered_teams_show_their_names_members_and_levels() -> None:
    match = Match(levels=(14, 9), failures=(2, 0), declaring=0)
    _, table, _, client = guandan_console(
        teams=("Sakura", "Momiji"), hands=GUANDAN_SMALL_HANDS, match=match, leader=0
    )

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    first, second = team_box(page, 0), team_box(page, 1)
    assert "Sakura" in first and "Aoki · Chiba" in first and "Level A" in first
    assert 'data-testid="declares"' in first and "2 failed attempts at A" in first
    assert "Momiji" in second and "Baba · Doi" in second and "Level 9" in second
    assert "declares" not in second
    assert "Level played: A" in page


def test_without_registered_teams_the_teams_are_a_and_b() -> None:
    _, table, _, client = guandan_console(hands=GUANDAN_SMALL_HANDS)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "Team A" in team_box(page, 0) and "Team B" in team_box(page, 1)
    assert "First hand of the match: level 2 is played" in page


def test_partners_face_each_other_and_the_turn_is_shown() -> None:
    _, table, _, client = guandan_console(hands=GUANDAN_SMALL_HANDS)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    seat = r'class="gd-seat at-(\w+) team-\d[^"]*" data-testid="seat-(\d)"'
    places = dict(re.findall(seat, page))
    assert places == {"bottom": "1", "right": "2", "top": "3", "left": "4"}
    assert re.search(r'data-testid="turn">Aoki \(seat 1\)', page)
