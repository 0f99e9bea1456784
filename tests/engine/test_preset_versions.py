"""Preset versions: uecda@2 and gekijo@2 add the rules built since @1; a bare id resolves to the
latest version, and @1 keeps every switch it had (a stored game replays as it was played)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import PRESETS, find_ruleset, latest_rulesets
from games.engine.rules import GEKIJO, GEKIJO_2, SWITCHES, UECDA, UECDA_2

# What uecda@1 and gekijo@1 were when they were pinned (the switches they set; every other
# switch has the RuleSet default). A change here is a change of a pinned preset: never.
UECDA_1 = {
    "seats": 5,
    "jokers": 1,
    "blind_cards": 0,
    "first_lead_cards": ("3D",),
    "opening_card_required": False,
    "opening_card_every_game": True,
    "pass_on_lead": True,
    "revolution_stairs_size": 5,
    "stairs_overlap": False,
    "eight_cut_in_stairs": True,
    "spade3_ignores_lock": True,
    "lock_counts_joker_suits": True,
    "miyako_ochi": False,
    "foul_finishes": "none",
    "exchange_order": "lower_first",
}
GEKIJO_1 = {
    "jokers": 1,
    "blind_cards": 0,
    "first_lead_cards": ("3D",),
    "opening_card_every_game": True,
    "joker_single_only": True,
    "revolution_stairs_size": 8,
    "stairs_overlap": False,
    "double_stairs": True,
    "triple_run": True,
    "eleven_back": "choice",
    "reset_passes_on_reverse": True,
    "spade_three_return": False,
    "heart_three_return": True,
    "joker_return_out_of_turn": True,
    "suit_lock": False,
    "miyako_ochi": False,
    "foul_finishes": "joker",
    "instant_win": True,
}


def _set(rules) -> dict[str, object]:
    default = find_ruleset("jdf@1")
    return {k: v for k, v in rules.switches().items() if v != getattr(default, k)}


@pytest.mark.parametrize(("key", "expected"), [("uecda@1", UECDA_1), ("gekijo@1", GEKIJO_1)])
def test_version_1_is_unchanged(key, expected):
    rules = find_ruleset(key)
    assert _set(rules) == expected
    for name in ("last_player_may_follow", "joker_beyond_ends", "joker_suit_choice", "misplay"):
        assert getattr(rules, name) is False
    assert rules.stalemate_passes == 0


def test_version_2_adds_exactly_the_new_rules():
    assert UECDA_2.key == "uecda@2" and GEKIJO_2.key == "gekijo@2"
    assert _set(UECDA_2) == UECDA_1 | {
        "last_player_may_follow": True,
        "joker_beyond_ends": True,
        "joker_suit_choice": True,
    }
    assert _set(GEKIJO_2) == GEKIJO_1 | {"misplay": True}
    assert UECDA_2.points == UECDA.points and GEKIJO_2.name == GEKIJO.name
    back = dataclasses.replace(
        UECDA_2,
        version=1,
        last_player_may_follow=False,
        joker_beyond_ends=False,
        joker_suit_choice=False,
    )
    assert back == UECDA


def test_bare_ids_resolve_to_the_latest_version():
    assert find_ruleset("uecda") is PRESETS["uecda@2"]
    assert find_ruleset("gekijo") is PRESETS["gekijo@2"]
    assert find_ruleset("uecda@1") is UECDA and find_ruleset("gekijo@1") is GEKIJO
    assert find_ruleset("jdf").key == "jdf@1" and find_ruleset("local").key == "local@1"
    assert {r.key for r in latest_rulesets() if r.family == "daifugo"} == {
        "jdf@1",
        "gekijo@2",
        "local@1",
        "uecda@2",
    }


def test_overrides_keep_the_version_they_start_from():
    rules = find_ruleset("uecda@1").with_overrides(last_player_may_follow=True)
    assert rules.key == "uecda@1"
    assert rules.to_record() == {
        "preset": "uecda@1",
        "overrides": {"last_player_may_follow": True},
    }
    assert UECDA_2.with_overrides(last_player_may_follow=False).to_record() == {
        "preset": "uecda@2",
        "overrides": {"last_player_may_follow": False},
    }


def test_every_switch_is_documented():
    assert {"last_player_may_follow", "stalemate_passes", "misplay"} <= set(SWITCHES)
