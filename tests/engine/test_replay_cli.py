"""python -m games.engine replay FILE|- (record-format.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RECORD = {
    "format": "kakumei-record/1",
    "rules": "jdf",
    "hands": [["3S", "5D"], ["4H", "6C"], ["7S", "9D"], ["8H", "TD"]],
    "moves": [
        {"seat": 0, "play": ["3S"]},
        {"seat": 1, "play": ["3S"]},
        {"seat": 1, "play": ["4H"]},
    ],
}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_replay_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"moves", "finished", "placings"}
    assert out["moves"][0] == {"i": 0, "ok": True, "events": ["played"]}
    assert out["moves"][1]["ok"] is False and out["moves"][1]["code"] == "card_not_in_hand"
    assert out["moves"][1]["message"]
    assert out["moves"][2]["ok"] is True
    assert out["finished"] is False


def test_replay_stdin():
    proc = run("replay", "-", stdin=json.dumps(RECORD))
    assert proc.returncode == 0
    assert len(json.loads(proc.stdout)["moves"]) == 3


def test_invalid_record_exits_2_with_message_naming_the_card(tmp_path):
    bad = dict(RECORD, hands=[["3S", "5X"], ["4H"], ["7S"], ["8H"]])
    proc = run("replay", "-", stdin=json.dumps(bad))
    assert proc.returncode == 2
    assert "hands[0][1]" in proc.stderr and "5X" in proc.stderr
    assert proc.stdout == ""
    proc = run("replay", "-", stdin="not json")
    assert proc.returncode == 2
    proc = run("replay", str(tmp_path / "missing.json"))
    assert proc.returncode == 2


def test_conformance_command():
    proc = run("conformance")
    assert proc.returncode == 0, proc.stdout
    assert "vectors pass" in proc.stdout
