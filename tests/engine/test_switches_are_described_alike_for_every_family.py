"""Every ruleset describes its switches alike, whatever its family: name, description, the
values it may take when they are finite, the preset's value and its own (``describe_switches``),
and names the switches that still need a value before play (``unset_switches``: none for 大富豪
and 掼蛋, whose every switch has a default)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import family_of, rulesets
from games.engine.errors import RulesError
from games.engine.family import Rules, SwitchInfo, ruleset_from_record

EVERY_PRESET = sorted(rulesets())
# 大財閥's preset leaves two switches to the organiser (test_daizaibatsu_unset_switches).
COMPLETE_PRESETS = [key for key in EVERY_PRESET if rulesets()[key].family != "daizaibatsu"]


def described(rules: Rules) -> dict[str, SwitchInfo]:
    return {s.name: s for s in rules.describe_switches()}


@pytest.mark.parametrize("key", COMPLETE_PRESETS)
def test_no_preset_of_daifugo_or_guandan_leaves_a_switch_unset(key: str) -> None:
    assert rulesets()[key].unset_switches() == ()


@pytest.mark.parametrize("key", COMPLETE_PRESETS)
def test_a_preset_gives_every_switch_its_own_value_and_changes_none(key: str) -> None:
    for switch in rulesets()[key].describe_switches():
        assert switch.value is not None
        assert switch.preset == switch.value
        assert not switch.changed
        assert switch.description


def test_jdf_11_back_offers_off_choice_and_toggle_and_is_off() -> None:
    # 11-back: off in JDF; 'choice' (gekijo B5) or 'toggle' (UECda D7) elsewhere.
    switch = described(rulesets()["jdf@1"])["eleven_back"]
    assert switch.choices == ("off", "choice", "toggle")
    assert switch.preset == "off"


def test_an_on_off_rule_offers_exactly_on_and_off() -> None:
    assert set(described(rulesets()["jdf@1"])["miyako_ochi"].choices or ()) == {True, False}


def test_the_opening_cards_are_a_list_not_a_choice() -> None:
    assert described(rulesets()["jdf@1"])["first_lead_cards"].choices is None


def test_an_override_is_the_value_and_differs_from_the_preset() -> None:
    rules = ruleset_from_record({"preset": "jdf@1", "overrides": {"eleven_back": "choice"}})
    switch = described(rules)["eleven_back"]
    assert (switch.preset, switch.value, switch.changed) == ("off", "choice", True)
    assert not described(rules)["eight_cut"].changed


def test_guandan_switches_name_their_values_too() -> None:
    rules = ruleset_from_record(
        {"preset": "guandan-cn@1", "overrides": {"tribute_tie": "first_chooses"}}
    )
    switch = described(rules)["tribute_tie"]
    assert switch.choices == ("seat_order", "first_chooses")
    assert (switch.preset, switch.value, switch.changed) == ("seat_order", "first_chooses", True)


def test_true_is_not_taken_for_the_number_one() -> None:
    with pytest.raises(RulesError):
        ruleset_from_record({"preset": "jdf@1", "overrides": {"suit_lock_after": True}})


FINITE = [
    (key, switch.name, choice)
    for key in EVERY_PRESET
    for switch in rulesets()[key].describe_switches()
    for choice in switch.choices or ()
]


@given(st.sampled_from(FINITE))
def test_every_offered_value_is_one_the_family_accepts(case: tuple[str, str, object]) -> None:
    key, name, choice = case
    rules = family_of(rulesets()[key]).ruleset({"preset": key, "overrides": {name: choice}})
    value = described(rules)[name]
    assert value.value == choice and type(value.value) is type(choice)
