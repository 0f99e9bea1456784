"""When a selection with the wild (逢人配) can be read several ways, the console lists the
readings and plays nothing until the referee picks one; a selection with one reading is played
at once, and no picker is shown."""

from __future__ import annotations

import re

import pytest

from tests.factories import GUANDAN_SMALL_HANDS, guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
STRAIGHT = ["2H", "5S", "6D", "7C", "8H"]  # ♥2 as a 4 or as a 9


def test_an_ambiguous_selection_asks_which_reading_and_plays_nothing() -> None:
    _, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)

    response = client.post(
        f"/referee/tables/{table.pk}/play/",
        {"seq": 1, "seat": 0, "cards": STRAIGHT, "action": "play"},
        **HTMX,
    )

    page = response.content.decode()
    assert 'data-testid="declaration-picker"' in page
    readings = re.findall(r'data-testid="reading">([^<]+)<', page)
    assert [r.strip() for r in readings] == ["straight 4–8", "straight 5–9"]
    for code in STRAIGHT:  # the selection stays picked
        assert re.search(rf'value="{code}" aria-label="{code}" checked', page)
    game.refresh_from_db()
    assert game.last_seq == 0


def test_the_chosen_reading_is_played_with_its_declaration() -> None:
    _, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)
    url = f"/referee/tables/{table.pk}/play/"
    picker = client.post(url, {"seq": 1, "seat": 0, "cards": STRAIGHT}, **HTMX).content.decode()
    high = re.findall(r'name="as" value="([^"]+)"', picker)[-1]

    response = client.post(url, {"seq": 1, "seat": 0, "cards": STRAIGHT, "as": high}, **HTMX)

    move = game.moves.get()
    assert move.payload["as"] == [high] and high.startswith("9")
    assert "straight 5–9 by Aoki" in response.content.decode()


def test_a_selection_with_one_reading_is_played_without_a_picker() -> None:
    _, table, game, client = guandan_console(hands=GUANDAN_SMALL_HANDS)

    response = client.post(
        f"/referee/tables/{table.pk}/play/",
        {"seq": 1, "seat": 0, "cards": ["KS", "KS"], "action": "play"},
        **HTMX,
    )

    assert "declaration-picker" not in response.content.decode()
    assert game.moves.get().payload == {"seat": 0, "play": ["KS", "KS"]}
