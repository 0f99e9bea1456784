"""The example of docs/records-for-tools.md is true: the public line's record and the revealed
record both replay, through the engine's command, to the placings the line's `results` give."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "records-for-tools.md"


def examples() -> list[dict[str, object]]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    parsed = []
    for block in blocks:
        try:
            parsed.append(json.loads(block))
        except ValueError:
            continue  # a shape with … in it
    return parsed


def replayed_places(record: object) -> dict[int, int]:
    command = [sys.executable, "-m", "games.engine", "replay", "-"]
    done = subprocess.run(command, input=json.dumps(record), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["finished"] is True and all(v["ok"] for v in out["moves"])
    return {p["seat"]: p["place"] for p in out["placings"]}


def test_the_example_line_and_record_replay_to_the_lines_results() -> None:
    line, revealed = examples()
    results = {r["seat"]: r["place"] for r in line["game"]["results"]}  # type: ignore[index]
    assert line["game"]["replays"] is True  # type: ignore[index]
    assert replayed_places(line["record"]) == results  # type: ignore[index]
    assert replayed_places(revealed) == results
    assert revealed["moves"] == line["record"]["moves"]  # type: ignore[index]
