"""上がり殺し's card and 財閥革命 have no default: the preset refuses to play until the organiser
sets them, and names them."""

from __future__ import annotations

import pytest

from games.engine.daizaibatsu import new_game
from games.engine.daizaibatsu_rules import DAIZAIBATSU
from games.engine.errors import RulesError
from games.engine.family import find_ruleset, ruleset_from_record


def test_the_preset_names_its_unset_switches() -> None:
    assert DAIZAIBATSU.unset_switches() == ("finish_kill_card", "zaibatsu_revolution")


def test_a_game_under_the_bare_preset_is_refused_naming_both() -> None:
    with pytest.raises(RulesError) as caught:
        new_game(DAIZAIBATSU, seed="x")
    assert "finish_kill_card" in str(caught.value)
    assert "zaibatsu_revolution" in str(caught.value)


def test_setting_one_still_refuses_the_other() -> None:
    with pytest.raises(RulesError, match="zaibatsu_revolution"):
        new_game(DAIZAIBATSU.with_overrides(finish_kill_card="7S"), seed="x")


def test_both_set_the_game_starts() -> None:
    rules = DAIZAIBATSU.with_overrides(finish_kill_card="JK", zaibatsu_revolution="off")
    assert rules.unset_switches() == ()
    assert sum(new_game(rules, seed="x").counts) == 4 * 13


def test_zaibatsu_revolution_has_only_off() -> None:
    with pytest.raises(RulesError):
        DAIZAIBATSU.with_overrides(zaibatsu_revolution="on")


def test_the_kill_card_must_be_a_card() -> None:
    with pytest.raises(RulesError):
        DAIZAIBATSU.with_overrides(finish_kill_card="ZZ")


def test_the_preset_is_registered_and_records_name_overrides() -> None:
    assert find_ruleset("daizaibatsu") is DAIZAIBATSU
    rules = ruleset_from_record(
        {
            "preset": "daizaibatsu",
            "overrides": {"finish_kill_card": "off", "zaibatsu_revolution": "off"},
        }
    )
    assert rules.to_record() == {
        "preset": "daizaibatsu@1",
        "overrides": {"finish_kill_card": "off", "zaibatsu_revolution": "off"},
    }
