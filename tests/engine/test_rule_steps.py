"""A move is resolved by named rule steps in one documented order; a game keeps only the
steps its switches use."""

from __future__ import annotations

import re
from pathlib import Path

from games.engine import JDF, PRESETS, new_game
from games.engine.core import PASS_STEPS, PLAY_STEPS, RuleStep, Step

README = Path(__file__).resolve().parents[2] / "games" / "engine" / "README.md"
HANDS = ["3S 5D", "4H 6C", "7S 9D", "8H TD"]


def _names(in_use: tuple[Step, ...], steps: tuple[RuleStep, ...]) -> list[str]:
    return [s.name for s in steps if s.run in in_use]


def _documented(tuple_name: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"`{tuple_name}` = ((?:`\w+`(?: →\s+)?)+)", text)
    assert match, f"README lists {tuple_name}"
    return re.findall(r"`(\w+)`", match.group(1))


def test_the_readme_lists_the_steps_in_the_order_they_run():
    assert _documented("PLAY_STEPS") == [s.name for s in PLAY_STEPS]
    assert _documented("PASS_STEPS") == [s.name for s in PASS_STEPS]


def test_a_first_jdf_game_runs_only_the_jdf_steps():
    setup = new_game(JDF, HANDS).setup
    assert _names(setup.play_steps, PLAY_STEPS) == [
        "played",
        "revolution",
        "suit_lock",
        "joker_return",
        "finish",
        "eight_cut",
        "trick_end",
        "game_over",
    ]
    assert _names(setup.pass_steps, PASS_STEPS) == ["passed", "pass_turn"]


def test_miyako_ochi_is_a_step_only_once_there_is_a_daifugo():
    titles = ["daifugo", "fugo", "hinmin", "daihinmin"]
    later = new_game(JDF, ["3S 5D 6D", "4H 6C 7C", "7S 9D TD", "8H JD QD"], titles=titles)
    assert "miyako_ochi" in _names(later.setup.play_steps, PLAY_STEPS)
    assert "miyako_ochi" not in _names(new_game(JDF, HANDS).setup.play_steps, PLAY_STEPS)


def test_gekijo_has_no_suit_lock_step_and_its_own_order_rules():
    gekijo = PRESETS["gekijo@1"]
    names = _names(new_game(gekijo, HANDS).setup.play_steps, PLAY_STEPS)
    assert "suit_lock" not in names
    assert "eight_cut" in names
    assert {"eleven_back", "passes_reset", "joker_return"} <= set(names)


def test_switching_a_rule_off_drops_its_step():
    names = _names(
        new_game(JDF.with_overrides(eight_cut=False), HANDS).setup.play_steps, PLAY_STEPS
    )
    assert "eight_cut" not in names
