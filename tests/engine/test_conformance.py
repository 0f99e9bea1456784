"""Every conformance vector, through the same replay function the CLI uses."""

from __future__ import annotations

import json

import pytest

from games.engine.record import CONFORMANCE_DIR, check_vector, load_vectors

VECTORS = load_vectors(CONFORMANCE_DIR)


def test_every_jdf_worked_example_has_a_vector():
    refs = {v["reference"] for _, v in VECTORS}
    for n in range(1, 21):
        assert f"REFERENCE §1.4 JDF-T{n:02d}" in refs, n


@pytest.mark.parametrize(("path", "vector"), VECTORS, ids=[p.stem for p, _ in VECTORS])
def test_vector(path, vector):
    assert vector["format"] == "kakumei-conformance/1"
    assert vector["name"] and vector["description"]
    assert check_vector(vector) == []


def test_a_wrong_expectation_is_reported():
    vector = next(v for p, v in VECTORS if p.stem.startswith("t01"))
    broken = json.loads(json.dumps(vector))
    broken["expect"]["moves"] = [{"i": 0, "ok": False, "code": "suit_locked"}]
    broken["expect"]["finished"] = True
    assert len(check_vector(broken)) == 3
