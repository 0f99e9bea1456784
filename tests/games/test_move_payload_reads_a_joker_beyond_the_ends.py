"""A move's `as` may place a joker below the 3 (`-S` …) or above the 2 (`+S` …) of stairs
(REFERENCE §4.1 rule 13a, switch `joker_beyond_ends`): the service reads and stores it."""

from __future__ import annotations

import pytest

from games.engine import Move
from games.state import BadMove, canonical, parse_move


def test_as_above_two_is_read_and_stored_canonically():
    move = parse_move({"seat": 0, "play": "ah 2h jk", "as": "+h"}, seats=5)
    assert move == Move.play(0, "AH 2H JK", as_="+H")
    assert canonical(move) == {"seat": 0, "play": ["AH", "2H", "JK"], "as": {"JK": "+H"}}


def test_a_beyond_position_is_never_a_card():
    with pytest.raises(BadMove) as info:
        parse_move({"seat": 0, "play": ["+H", "JK"]}, seats=5)
    assert info.value.code == "unknown_card"
