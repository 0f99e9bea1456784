"""A record's optional `clock` (record-format.md §3: the limit, think time per move, time
faults) is accepted by `load_record` for every family — and whole match records — checked for
form, and ignored by the replay: every conformance vector replays the same with one."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import RecordError
from games.engine.record import is_match_record, load_record, replay, replay_match

CONFORMANCE = Path(__file__).resolve().parents[2] / "games" / "engine" / "conformance"


def first_vector(folder: str, *, match: bool = False) -> dict[str, Any]:
    for path in sorted((CONFORMANCE / folder).glob("*.json")):
        record: dict[str, Any] = json.loads(path.read_text())["record"]
        if is_match_record(record) == match and (match or record.get("moves")):
            return record
    raise AssertionError(f"no vector in {folder}")


def with_clock(record: dict[str, Any]) -> dict[str, Any]:
    timed = copy.deepcopy(record)
    if "games" in timed:
        moves = sum(len(g.get("moves", [])) for g in timed["games"])
    else:
        moves = len(timed.get("moves", []))
    timed["clock"] = {
        "limit_ms": 20000,
        "think_ms": [1500 + i for i in range(moves - 1)] + [None],
        "faults": [{"move": 0, "seat": 0, "rule": "warning", "think_ms": 23100}],
    }
    if timed.get("exchange"):
        timed["clock"]["exchange_think_ms"] = [800] * len(timed["exchange"])
    return timed


@pytest.mark.parametrize("folder", ["jdf", "uecda", "guandan-cn", "daizaibatsu"])
def test_every_family_replays_a_timed_record_as_the_untimed_one(folder: str) -> None:
    record = first_vector(folder)

    assert replay(with_clock(record)).to_dict() == replay(record).to_dict()


def test_a_match_record_takes_one_clock_over_all_its_games() -> None:
    record = first_vector("guandan-cn", match=True)

    assert replay_match(with_clock(record)).to_dict() == replay_match(record).to_dict()


@pytest.mark.parametrize(
    ("clock", "key"),
    [
        ("fast", "clock"),
        ({"limit_ms": 20000, "tick": 1}, "clock.tick"),
        ({"limit_ms": -1}, "clock.limit_ms"),
        ({"think_ms": [100]}, "clock.think_ms"),
        ({"think_ms": [100, "2 s", None]}, "clock.think_ms[1]"),
        ({"faults": [{"move": 0, "seat": 0, "rule": "yellow card"}]}, "clock.faults[0].rule"),
        ({"faults": [{"move": 9, "seat": 0, "rule": "warning"}]}, "clock.faults[0].move"),
        ({"faults": [{"seat": 0, "rule": "warning"}]}, "clock.faults[0]"),
    ],
)
def test_a_malformed_clock_is_a_record_error_naming_its_key(clock: object, key: str) -> None:
    record = {
        "format": "kakumei-record/1",
        "rules": "jdf@1",
        "hands": [["3S", "9D"], ["4H"], ["5C", "2D"], ["6D"]],
        "moves": [
            {"seat": 0, "play": ["3S"]},
            {"seat": 1, "play": ["4H"]},
            {"seat": 2, "play": ["2D"]},
        ],
        "clock": clock,
    }
    with pytest.raises(RecordError) as error:
        load_record(record)
    assert error.value.key == key
