"""The console announces what the engine's events say happened: 接风 (the lead passing to the
partner of a player who went out), a bomb (炸弹), a player going out (头游 …) and, at the end,
the hand's level change and the next hand's levels."""

from __future__ import annotations

import pytest

from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS = [["3C"], ["4S", "4D", "4H", "4C"], ["5S", "9S"], ["6S", "7D"]]


def post(client: object, table: object, data: dict[str, object]) -> str:
    response = client.post(f"/referee/tables/{table.pk}/play/", data, **HTMX)  # type: ignore[attr-defined]
    return str(response.content.decode())


def test_the_lead_passing_to_the_partner_is_announced_as_jiefeng() -> None:
    _, table, _, client = guandan_console(hands=HANDS)

    first = post(client, table, {"seq": 1, "seat": 0, "cards": ["3C"]})
    for seq, seat in ((2, 1), (3, 2), (4, 3)):
        page = post(client, table, {"seq": seq, "seat": seat, "action": "pass"})

    assert 'data-testid="announce-finished"' in first and "first out (tóuyóu)" in first
    assert 'data-testid="announce-jiefeng"' in page
    assert "Chiba takes the lead from their partner (jiēfēng)" in page
    assert 'data-testid="turn">Chiba (seat 3)' in page


def test_a_bomb_is_announced() -> None:
    _, table, _, client = guandan_console(hands=HANDS)
    post(client, table, {"seq": 1, "seat": 0, "cards": ["3C"]})

    page = post(client, table, {"seq": 2, "seat": 1, "cards": ["4S", "4D", "4H", "4C"]})

    assert 'data-testid="announce-played"' in page and "bomb (zhàdàn)!" in page
    assert "bomb of 4 × 4 by Baba" in page


def test_the_end_of_the_hand_shows_the_level_change_and_the_next_levels() -> None:
    _, table, _, client = guandan_console(hands=HANDS)
    post(client, table, {"seq": 1, "seat": 0, "cards": ["3C"]})
    post(client, table, {"seq": 2, "seat": 1, "action": "pass"})
    post(client, table, {"seq": 3, "seat": 2, "action": "pass"})
    post(client, table, {"seq": 4, "seat": 3, "action": "pass"})

    page = post(client, table, {"seq": 5, "seat": 2, "cards": ["5S"]})
    page = post(client, table, {"seq": 6, "seat": 3, "cards": ["6S"]})
    page = post(client, table, {"seq": 7, "seat": 1, "action": "pass"})
    page = post(client, table, {"seq": 8, "seat": 2, "cards": ["9S"]})

    assert 'data-testid="hand-result"' in page and "Finish: 1-2" in page
    assert "Team A: level 2 → 5 (+3)" in page
    assert "Next hand's levels: Team A 5 · Team B 2" in page
