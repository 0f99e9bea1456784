"""Offline console benchmark: how long the phone takes to judge a tap (issue #19).

    python benchmarks/offline_judge.py [--games N] [--seed K]

Offline, every tap is judged by ``games.offline.judge``: the game's record and the queued
moves are replayed through the engine, then the tap is read and applied. The judge keeps no
state between taps (the record and the queue in the browser's storage are the truth), so a
tap late in a game replays the whole game first. This measures what that costs, on N seeded
random JDF games played to the end (every tap of every game, the queue growing from empty):

* ``cpython``: the judge in this process (the server's Python);
* ``pyodide``: the same judge in Pyodide under Node.js (the WebAssembly build the phone's
  browser runs; ``node_modules/pyodide`` and the engine archive the site serves), in the same
  run, so the ratio compares like with like on this machine;
* the baseline, in each: judging the same taps against a state kept in memory between taps
  (``Table.play`` only, no replay) — what the stateless judge pays for its simplicity.

Also Pyodide's start on the phone: load, unpack the engine, import the judge (once per page
load, in the background). Times are per tap, mean and worst (the last taps of the longest
game); the worst tap should stay well under the 100 ms a tap feels instant at.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KAKUMEI_ENGINE", "pure")

from games import offline  # noqa: E402
from games.engine import JDF, legal_moves, new_game  # noqa: E402
from games.engine.deal import deal  # noqa: E402
from games.engine.record import export_record  # noqa: E402

NODE_SCRIPT = Path(__file__).with_name("offline_judge.mjs")


def random_games(count: int, seed: int) -> list[dict[str, Any]]:
    """Seeded random games to the end: each a record of the deal and the taps played."""
    rng = random.Random(seed)
    games = []
    for number in range(count):
        dealt = deal(f"offline-bench-{seed}-{number}", JDF)
        start = new_game(JDF, dealt.hands, blind=dealt.blind)
        table = offline.Table(export_record(start, []))
        taps = []
        while not table.family.is_over(table.state):
            move = rng.choice(list(legal_moves(table.state)))
            payload = table.play(table.family.move_to_json(move))["move"]
            assert isinstance(payload, dict)
            taps.append(form_of(payload))
        games.append({"record": export_record(start, []), "taps": taps})
    return games


def form_of(move: dict[str, Any]) -> dict[str, list[str]]:
    """The console form that taps `move` (what the page sends the judge)."""
    form = {"seat": [str(move["seat"])]}
    if move.get("pass"):
        return form | {"action": ["pass"]}
    form |= {"action": ["play"], "cards": list(move["play"])}
    if "as" in move:
        joker = move["as"]["JK"]
        form["as"] = [" ".join(joker) if isinstance(joker, list) else joker]
    for key in ("declare", "choice"):
        if key in move:
            form[key] = [str(move[key])]
    return form


def judge_all(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The same loop as offline_judge.mjs runs in Pyodide: milliseconds per tap."""
    stateless: list[float] = []
    kept: list[float] = []
    for game in games:
        record = json.dumps(game["record"])
        queue: list[Any] = []
        table = offline.Table(game["record"])
        for form in game["taps"]:
            began = time.perf_counter()
            answer = json.loads(offline.judge(record, json.dumps(queue), json.dumps(form)))
            stateless.append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            table.play(offline.move_from_form(form))
            kept.append((time.perf_counter() - began) * 1000)
            assert answer["ok"], answer
            queue.append(answer["move"])
    return {"stateless": stateless, "kept": kept}


def in_pyodide(games: list[dict[str, Any]]) -> dict[str, Any] | str:
    node = shutil.which("node")
    pyodide = ROOT / "node_modules" / "pyodide"
    if node is None or not (pyodide / "pyodide.mjs").is_file():
        return "skipped: needs node and node_modules/pyodide (./dev test installs both)"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from games.offline_assets import engine_archive

    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "engine.zip"
        archive.write_bytes(engine_archive())
        run = subprocess.run(
            [node, str(NODE_SCRIPT), str(pyodide), str(archive)],
            input=json.dumps(games),
            capture_output=True,
            text=True,
            timeout=1800,
            check=True,
        )
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def summary(times: list[float]) -> str:
    return f"mean {sum(times) / len(times):7.2f} ms   worst {max(times):7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    games = random_games(args.games, args.seed)
    taps = sum(len(g["taps"]) for g in games)
    longest = max(len(g["taps"]) for g in games)
    print(f"{args.games} random JDF games, {taps} taps (longest game {longest} taps)\n")
    cpython = judge_all(games)
    print("cpython  judge (replay + tap)  ", summary(cpython["stateless"]))
    print("cpython  baseline: kept state  ", summary(cpython["kept"]))
    pyodide = in_pyodide(games)
    if isinstance(pyodide, str):
        print(f"\npyodide  {pyodide}")
        return
    print("pyodide  judge (replay + tap)  ", summary(pyodide["stateless"]))
    print("pyodide  baseline: kept state  ", summary(pyodide["kept"]))
    print(f"pyodide  start (load, unpack, import): {pyodide['start_ms']:.0f} ms")
    mean = {
        k: sum(v) / len(v) for k, v in (("c", cpython["stateless"]), ("p", pyodide["stateless"]))
    }
    print(
        f"\nratios: pyodide/cpython {mean['p'] / mean['c']:.1f}x (mean judge); "
        f"judge/kept state: cpython {mean['c'] / (sum(cpython['kept']) / taps):.1f}x, "
        f"pyodide {mean['p'] / (sum(pyodide['kept']) / taps):.1f}x"
    )


if __name__ == "__main__":
    main()
