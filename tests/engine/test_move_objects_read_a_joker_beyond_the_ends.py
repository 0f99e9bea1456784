"""A move's `as` may place a joker below the 3 (`-S` …) or above the 2 (`+S` …) of stairs
(REFERENCE §4.1 rule 13a, switch `joker_beyond_ends`): the one move parser, used by records and
the service alike, reads and writes it."""

from __future__ import annotations

import pytest

from games.engine import Move
from games.engine.daifugo import move_from_json, move_to_json
from games.engine.errors import RecordError


def test_as_above_two_is_read_and_written_canonically():
    move = move_from_json({"seat": 0, "play": "ah 2h jk", "as": "+h"}, "move", 5)
    assert move == Move.play(0, "AH 2H JK", as_="+H")
    assert move_to_json(move) == {"seat": 0, "play": ["AH", "2H", "JK"], "as": {"JK": "+H"}}


def test_a_beyond_position_is_never_a_card():
    with pytest.raises(RecordError) as info:
        move_from_json({"seat": 0, "play": ["+H", "JK"]}, "move", 5)
    assert info.value.code == "unknown_card"
