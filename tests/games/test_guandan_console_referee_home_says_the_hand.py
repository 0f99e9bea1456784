"""The referee's home page tells a Guandan table by its hand and both teams' levels, not by
大富豪's sets and games."""

from __future__ import annotations

import pytest

from games.engine.guandan import Match
from tests.factories import GUANDAN_SMALL_HANDS, guandan_console

pytestmark = pytest.mark.django_db


def test_a_guandan_table_is_told_by_its_hand_and_levels() -> None:
    match = Match(levels=(7, 4), previous=(0, 1, 2, 3))
    hands = [list(h) for h in GUANDAN_SMALL_HANDS]
    _, _, _, client = guandan_console(hands=hands, match=match, game_number=3)

    page = client.get("/referee/").content.decode()

    assert "Hand 3 in play · levels 7–4" in page
    assert "Set 1 · game 3" not in page
