"""The console lays a Guandan hand out by rank in the level's order (the level rank between A
and the jokers), counts each rank (two packs: a card may be held twice), marks the level cards
and the heart level card (逢人配, wild), and flags the ranks the seat can bomb with (炸弹)."""

from __future__ import annotations

import re

import pytest

from games.engine.guandan import Match
from tests.factories import guandan_console

pytestmark = pytest.mark.django_db

# Level 5 (team 0 declares): ♥5 is wild; four 9s are a bomb; the Ks are held twice.
HANDS = [
    ["BJ", "5S", "5H", "AS", "2C", "SJ", "KD", "KD", "9S", "9H", "9D", "9C", "3S"],
    ["4S", "4D", "QS", "AH"],
    ["6S", "6H", "9D", "TD"],
    ["7S", "7D", "JC", "JD"],
]


def test_the_hand_in_turn_is_laid_out_by_rank_in_the_levels_order() -> None:
    _, table, _, client = guandan_console(
        hands=HANDS, match=Match(levels=(5, 3), declaring=0), leader=0
    )

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()
    hand = page[page.index('data-testid="hand"') :]

    ranks = re.findall(r'data-testid="rank-([^"]+)"', hand)
    assert ranks[:7] == ["2", "3", "9", "K", "A", "5", "SJ"]
    assert ranks[7] == "BJ"
    assert re.search(r'rank-K">\s*<span class="gd-rank-head">K<small class="n">×2', hand)
    assert re.search(r'class="card red level wild"[^>]*><input [^>]*value="5H"', hand)
    assert re.search(r'class="card black level"><input [^>]*value="5S"', hand)
    assert 'data-testid="bomb-9"' in hand and 'data-testid="bomb-K"' not in hand


def test_the_level_played_and_the_wild_card_are_on_screen() -> None:
    _, table, _, client = guandan_console(
        hands=HANDS, match=Match(levels=(5, 3), declaring=0), leader=0
    )

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "Level played: 5" in page
    assert re.search(r'wild \(fengrenpei\): <span class="card red wild">♥5</span>', page)
