"""Quick entry of a Guandan hand: the finishing order (first out, second …; a 1-2 finish needs
only two) and, where the preset has the rule (pagat's `aces_finish_demotes`), an "aces only"
box; saved through `games.services.record_quick_result(game, actor, finishing_order, *,
aces_only=...)`, after which the console shows the level change and the next hand's levels."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_form_asks_for_the_finishing_order() -> None:
    _, table, _, client = guandan_console(mode="quick")

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert 'data-testid="quick-form"' in page
    assert re.findall(r'data-testid="place-(\d)"', page) == ["1", "2", "3", "4"]
    assert "first out (tóuyóu)" in page
    assert 'data-testid="aces-only"' not in page  # guandan-cn has no aces rule


def test_the_aces_only_box_is_offered_where_the_preset_has_the_rule() -> None:
    _, table, _, client = guandan_console(mode="quick", ruleset_id="guandan-pagat")

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert 'data-testid="aces-only"' in page


def test_a_one_two_finish_needs_two_names_and_shows_the_next_levels() -> None:
    _, table, game, client = guandan_console(mode="quick")

    response = client.post(
        f"/referee/tables/{table.pk}/quick/", {"place_1": "0", "place_2": "2"}, **HTMX
    )

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = response.content.decode()
    assert "Finish: 1-2" in page
    assert re.search(r"Team A: level 2 → 5 \(\+3\)", page)
    assert "Next hand's levels: Team A 5 · Team B 2" in page
