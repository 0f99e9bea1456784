"""Every conformance vector, through the same replay function the CLI uses."""

from __future__ import annotations

import json

import pytest

from games.engine import find_ruleset
from games.engine.daizaibatsu_rules import SWITCHES as DZ_SWITCHES
from games.engine.record import CONFORMANCE_DIR, check_vector, load_vectors

VECTORS = load_vectors(CONFORMANCE_DIR)


def _refs(folder: str) -> str:
    return " ".join(v["reference"] for p, v in VECTORS if p.parent.name == folder)


def test_every_jdf_worked_example_has_a_vector():
    refs = {v["reference"] for _, v in VECTORS}
    for n in range(1, 21):
        assert f"REFERENCE §1.4 JDF-T{n:02d}" in refs, n


@pytest.mark.parametrize(
    ("folder", "section", "prefix", "count"),
    [("gekijo", "§2.3", "GK", 12), ("local", "§3.3", "LR", 15), ("uecda", "§4.3", "UE", 13)],
)
def test_every_preset_worked_example_has_a_vector(folder, section, prefix, count):
    refs = _refs(folder)
    for n in range(1, count + 1):
        assert f"REFERENCE {section} {prefix}-T{n:02d}" in refs, n


@pytest.mark.parametrize(
    ("folder", "section", "items"),
    [
        (
            "gekijo",
            "§2.2",
            ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12"],
        ),
        ("local", "§3.2", ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "C11"]),
        ("uecda", "§4.2", ["D1", "D2", "D3", "D5", "D6", "D7"]),
    ],
)
def test_preset_ambiguities_have_vectors(folder, section, items):
    refs = _refs(folder)
    for item in items:
        assert f"{section} {item}" in refs or f", {item}" in refs, item


def test_every_guandan_worked_example_and_switch_has_a_vector() -> None:
    refs = _refs("guandan-cn")
    for n in range(1, 18):
        assert f"REFERENCE §5.3 GD-T{n:02d}" in refs, n
    for item in ("E1", "E3", "E4", "E5", "E6", "E7", "E8", "E10"):
        assert f"§5.2 {item}" in refs + _refs("guandan-pagat"), item
    # Each switch of the family in both its values.
    names = " ".join(v["name"] for p, v in VECTORS if p.parent.name.startswith("guandan"))
    for switch in ("tribute_tie", "return_limit", "a_failure_limit", "aces_finish_demotes"):
        assert names.count(switch) >= 2, switch


def test_every_daizaibatsu_worked_example_and_switch_value_has_a_vector() -> None:
    refs = _refs("daizaibatsu")
    for n in range(1, 15):
        assert f"REFERENCE §6.3 DZ-T{n:02d}" in refs, n
    # Each switch that has a choice appears in at least two of its values (the preset's value
    # where a vector does not override it), a boolean in both.
    preset = find_ruleset("daizaibatsu@1")
    used: dict[str, set[object]] = {name: set() for name in DZ_SWITCHES}
    for path, vector in VECTORS:
        if path.parent.name != "daizaibatsu":
            continue
        overrides = vector["record"]["rules"]["overrides"]
        for name in used:
            used[name].add(overrides.get(name, getattr(preset, name)))
    for name, (values, _) in DZ_SWITCHES.items():
        if len(values) > 1:
            assert len(used[name]) >= 2, (name, used[name])
        if set(values) == {True, False}:
            assert used[name] == {True, False}, name


@pytest.mark.parametrize(("path", "vector"), VECTORS, ids=[p.stem for p, _ in VECTORS])
def test_vector(path, vector):
    assert vector["format"] == "kakumei-conformance/1"
    assert vector["name"] and vector["description"]
    assert check_vector(vector) == []


def test_a_wrong_expectation_is_reported():
    vector = next(v for p, v in VECTORS if p.parent.name == "jdf" and p.stem.startswith("t01"))
    broken = json.loads(json.dumps(vector))
    broken["expect"]["moves"] = [{"i": 0, "ok": False, "code": "suit_locked"}]
    broken["expect"]["finished"] = True
    assert len(check_vector(broken)) == 3
