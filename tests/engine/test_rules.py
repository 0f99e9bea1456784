from __future__ import annotations

import dataclasses

import pytest

from games.engine import JDF, PRESETS, SWITCHES, RulesError, find_ruleset
from games.engine.rules import ruleset_from_record


def test_find_ruleset_by_id_and_version():
    assert find_ruleset("jdf") is JDF
    assert find_ruleset("jdf@1") is JDF
    assert find_ruleset(" JDF ") is JDF
    assert JDF.key == "jdf@1"
    assert PRESETS["jdf@1"] is JDF


@pytest.mark.parametrize("name", ["guandan", "gekijo@3", "jdf@2", "", "jdf@"])
def test_unknown_ruleset(name):
    with pytest.raises(RulesError):
        find_ruleset(name)


def test_jdf_defaults_follow_reference_recommendations():
    assert JDF.first_lead_cards == ("3S", "3C", "3D", "3H")  # A4
    assert JDF.spade3_ignores_lock is False  # A7
    assert JDF.lone_spade3_finish_is_foul is True  # A6
    assert JDF.joker_pair_allowed is True  # A5
    assert JDF.blind_cards == 2  # rule 2, A3
    assert JDF.revolution_set_size == 4
    assert JDF.eight_cut and not JDF.eight_cut_in_stairs
    assert JDF.suit_lock and JDF.suit_lock_after == 1
    assert JDF.miyako_ochi and JDF.spade_three_return


def test_with_overrides_is_a_new_frozen_value():
    rules = JDF.with_overrides(spade3_ignores_lock=True, revolution_set_size=5)
    assert rules.spade3_ignores_lock and rules.revolution_set_size == 5
    assert not JDF.spade3_ignores_lock
    assert rules.key == "jdf@1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.eight_cut = False  # type: ignore[misc]
    assert rules.to_record() == {
        "preset": "jdf@1",
        "overrides": {"revolution_set_size": 5, "spade3_ignores_lock": True},
    }
    assert JDF.to_record() == "jdf@1"
    assert JDF.with_overrides(eight_cut=True) == JDF


def test_unknown_switch_and_bad_values_are_errors():
    with pytest.raises(RulesError):
        JDF.with_overrides(eleven_back=True)
    with pytest.raises(RulesError):
        JDF.with_overrides(eight_cut="yes")
    with pytest.raises(RulesError):
        JDF.with_overrides(revolution_set_size=3)
    with pytest.raises(RulesError):
        JDF.with_overrides(first_lead_cards=["JK"])
    with pytest.raises(RulesError):
        JDF.with_overrides(first_lead_cards=["3S", "3S"])


def test_record_rules_values():
    assert ruleset_from_record("jdf@1") is JDF
    rules = ruleset_from_record({"preset": "jdf", "overrides": {"first_lead_cards": ["3D", "3C"]}})
    assert rules.first_lead_cards == ("3D", "3C")
    for bad in (
        {"preset": "jdf", "extra": 1},
        {"overrides": {}},
        3,
        {"preset": "jdf", "overrides": []},
    ):
        with pytest.raises(RulesError):
            ruleset_from_record(bad)


def test_every_switch_is_documented_and_a_ruleset_field():
    fields = {f.name for f in dataclasses.fields(JDF)}
    for name, switch in SWITCHES.items():
        assert name in fields
        assert switch.doc and switch.reference
        assert switch.check(getattr(JDF, name)) == getattr(JDF, name)
    assert set(JDF.switches()) == set(SWITCHES)
