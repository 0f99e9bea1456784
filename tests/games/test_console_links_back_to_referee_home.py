"""A referee can always get back from a table's console (and from a game's confirm page) to
their list of tables, /referee/, from the page header."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import finished_game
from tournaments.models import Seat

from .conftest import Crew

pytestmark = pytest.mark.django_db

HOME_LINK = re.compile(r'<p class="crumbs"><a href="/referee/" data-testid="referee-home-link">')


def test_the_console_header_links_to_the_referee_home(client: Client, crew: Crew) -> None:
    client.force_login(crew.referee)

    html = client.get(f"/referee/tables/{crew.table.pk}/").content.decode()

    assert HOME_LINK.search(html)
    assert "My tables" in html and "担当卓" not in html


def test_the_console_speaks_japanese_to_a_japanese_browser(client_ja: Client, crew: Crew) -> None:
    client_ja.force_login(crew.referee)

    html = client_ja.get(f"/referee/tables/{crew.table.pk}/").content.decode()

    assert HOME_LINK.search(html)
    for japanese in ("担当卓", "審判用", "選手", "開始"):
        assert japanese in html
    for english in ("My tables", "Referee console", "Start game", "Player"):
        assert english not in html


def test_the_confirm_page_links_to_the_referee_home_and_the_console(
    client: Client, crew: Crew
) -> None:
    entries = [s.entry for s in Seat.objects.filter(table=crew.table).order_by("position")]
    game = finished_game(crew.table, entries)
    client.force_login(crew.head_referee)

    html = client.get(f"/referee/games/{game.pk}/confirm/").content.decode()  # type: ignore[attr-defined]

    assert HOME_LINK.search(html)
    assert f'href="/referee/tables/{crew.table.pk}/"' in html
