"""大財閥 records: the move objects of the record form, replay through the family-neutral
reader and the ``replay`` command, export and snapshots that restore the same state."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.engine.daizaibatsu import (
    DAIZAIBATSU_FAMILY,
    Move,
    apply,
    deal,
    legal_moves,
    move_from_json,
    move_to_json,
    new_game,
    restore,
    snapshot,
)
from games.engine.daizaibatsu_combos import parse
from games.engine.errors import RecordError
from games.engine.record import export_record, replay

from .daizaibatsu_helpers import rules

RULES = {
    "preset": "daizaibatsu",
    "overrides": {"finish_kill_card": "off", "zaibatsu_revolution": "off"},
}


def test_move_objects_read_as_the_record_form_writes_them() -> None:
    assert move_from_json(
        {"seat": 1, "play": ["4D", "5D", "JK", "7D"], "as": ["6D"]}, "m", 4
    ) == Move(1, "play", parse("4D 5D 7D JK"), (parse("6D").one.bit_length() - 1,))
    for obj in (
        {"seat": 0, "pass": True},
        {"seat": 2, "choice": {"target": 3}},
        {"seat": 1, "give": ["KS"]},
        {"seat": 1, "discard": ["3C", "4C"]},
        {"seat": 1, "destroy": ["9H"]},
        {"seat": 1, "take": ["KD"]},
        {"seat": 3, "choice": "double_back"},
        {"seat": 3, "choice": "accept"},
        {"seat": 0, "drew": ["5S", "JK"]},
        {"seat": 0, "play": ["7S"], "respond": True},
    ):
        assert move_to_json(move_from_json(obj, "m", 4)) == obj


@pytest.mark.parametrize(
    "obj",
    [
        {"seat": 9, "pass": True},
        {"seat": 0, "pass": True, "play": ["3S"]},
        {"seat": 0, "choice": {"target": "x"}},
        {"seat": 0, "play": ["ZZ"]},
        {"seat": 0, "give": ["3S"], "as": ["4S"]},
        {"seat": 0, "play": ["3S", "JK"], "as": ["JK"]},
    ],
)
def test_malformed_move_objects_are_record_errors(obj: object) -> None:
    with pytest.raises(RecordError):
        move_from_json(obj, "m", 4)


def test_a_record_replays_to_its_verdicts() -> None:
    record = {
        "format": "kakumei-record/1",
        "rules": RULES,
        "hands": [["2S", "2H", "3C"], ["5D", "JK"], ["7H"], ["9S"]],
        "pile": ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "5S", "5H"],
        "leader": 0,
        "moves": [
            {"seat": 0, "play": ["2S", "2H"]},
            {"seat": 1, "pass": True},
            {"seat": 0, "choice": {"target": 1}},
            {"seat": 1, "choice": "double_back"},
        ],
    }
    out = replay(record).to_dict()
    assert [m["ok"] for m in out["moves"]] == [True, False, True, True]  # type: ignore[index]
    assert out["moves"][1]["code"] == "decision_pending"  # type: ignore[index]


def test_a_seed_alone_deals_the_hands_and_the_pile() -> None:
    record = {"format": "kakumei-record/1", "rules": RULES, "seed": "round-1", "moves": []}
    state = replay(record).state
    dealt = deal("round-1", rules())
    assert state.hands == dealt.hands and state.pile == dealt.pile
    assert len(dealt.pile) == 108 - 52


def random_game(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    start = new_game(rules(), seed=f"records/{seed}")
    state, moves, states = start, [], [start]
    while not DAIZAIBATSU_FAMILY.is_over(state) and len(moves) < 400:
        move = rng.choice(list(legal_moves(state)))
        state, _ = apply(state, move)
        moves.append(move)
        states.append(state)
    return start, moves, states


def test_an_exported_record_replays_to_the_same_state() -> None:
    start, moves, states = random_game(3)
    exported = export_record(start, moves)
    again = replay(json.loads(json.dumps(exported)))
    assert all(v.ok for v in again.moves)
    assert again.state == states[-1]


def test_snapshots_restore_every_state() -> None:
    _, _, states = random_game(5)
    for state in states:
        data = json.loads(json.dumps(snapshot(state)))
        assert restore(state.setup, data) == state


def test_the_replay_command_reads_a_daizaibatsu_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    start, moves, _ = random_game(7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_record(start, moves)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["moves"]) == len(moves)


def test_a_record_under_the_bare_preset_is_refused() -> None:
    with pytest.raises(RecordError) as caught:
        replay({"format": "kakumei-record/1", "rules": "daizaibatsu", "seed": "x", "moves": []})
    assert "finish_kill_card" in str(caught.value)
