"""The referee console's offline mode (issue #19) judges moves on the phone: the engine archive
the site serves, run by the Pyodide the site serves (node_modules/pyodide, static/pyodide/).
Run here under Node.js, one scripted JDF game is judged move for move exactly as the server's
engine judges it: the same events for the legal moves, the same code and Japanese words for
the refused ones."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.engine import JDF, IllegalMove, Move, apply, new_game

JUDGE = Path(__file__).with_name("pyodide_judge.mjs")

# Legal plays, an 8-cut (events beyond "played"), and refusals of several kinds: a pair on a
# single, a card too weak, a card on a lone joker, a play out of turn. A refused move changes
# nothing, so the game goes on from where it stood.
SCRIPT: dict[str, Any] = {
    "hands": ["3D 5S 5H 9C KD", "4C 6D 8S JH AS", "3S 7C 7D TS 2H", "4D 6S QC QH JK"],
    "moves": [
        {"seat": 2, "play": "3S"},
        {"seat": 3, "play": "4D"},
        {"seat": 0, "play": "5S 5H"},
        {"seat": 0, "play": "5S"},
        {"seat": 1, "play": "8S"},
        {"seat": 1, "play": "JH"},
        {"seat": 2, "play": "TS"},
        {"seat": 2, "play": "2H"},
        {"seat": 3, "play": "JK"},
        {"seat": 0, "play": "3D"},
        {"seat": 1, "play": "AS"},
        {"seat": 0, "pass": True},
    ],
}


def judged_on_the_server(script: dict[str, Any]) -> list[dict[str, Any]]:
    state = new_game(JDF, script["hands"])
    verdicts: list[dict[str, Any]] = []
    for move in script["moves"]:
        if move.get("pass"):
            action = Move.pass_turn(move["seat"])
        else:
            action = Move.play(move["seat"], move["play"])
        try:
            state, events = apply(state, action)
        except IllegalMove as refusal:
            verdicts.append({"code": refusal.code, "message_ja": refusal.message_ja})
        else:
            verdicts.append({"events": [event.to_dict() for event in events]})
    return verdicts


def node_and_pyodide() -> tuple[str, Path]:
    """Fails, never skips: `./dev test` installs both, so a missing one is a broken set-up."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "Node.js is not on PATH: run the tests with ./dev test, which installs it "
            "(or apt-get install nodejs npm)."
        )
    pyodide = Path(settings.PYODIDE_DIR)
    if not (pyodide / "pyodide.mjs").is_file():
        pytest.fail(
            f"Pyodide is not in {pyodide}: run the tests with ./dev test, which installs it "
            "(or run npm ci --ignore-scripts in the checkout)."
        )
    return node, pyodide


def test_pyodide_judges_a_game_as_the_server_does(client: Client, tmp_path: Path) -> None:
    node, pyodide = node_and_pyodide()
    archive = tmp_path / "engine.zip"
    archive.write_bytes(client.get(reverse("referee:offline-engine")).content)

    # One run (Pyodide takes seconds to start) judges the whole script.
    run = subprocess.run(
        [node, str(JUDGE), str(pyodide), str(archive)],
        input=json.dumps(SCRIPT),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    # Pyodide's own Python (WebAssembly, as in the phone's browser), with the pure modules.
    assert outcome["platform"] == "emscripten"
    assert outcome["engine"].startswith("pure")
    expected = judged_on_the_server(SCRIPT)
    assert outcome["verdicts"] == expected
    assert [verdict.get("code") for verdict in expected] == [
        None,
        None,
        "wrong_count",
        None,
        None,
        None,
        "not_stronger",
        None,
        None,
        "not_stronger",
        "not_your_turn",
        None,
    ]
