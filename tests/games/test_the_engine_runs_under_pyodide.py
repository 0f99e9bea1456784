"""The referee console's offline mode (issue #19) judges moves on the phone: the engine archive
the site serves, run by the Pyodide the site serves (node_modules/pyodide, static/pyodide/).
Run here under Node.js, a referee's scripted taps on a JDF game go through games/offline.py, as
on the phone, and are answered exactly as CPython answers them (the server reads a tap with the
same `move_from_form` and judges it with the same engine): the same moves and events for the
legal ones, the same code and words for the refused ones, the same game at the end."""

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

from games import offline
from games.engine import JDF, new_game
from games.engine.record import export_record

JUDGE = Path(__file__).with_name("pyodide_judge.mjs")

# Legal plays (picked and typed), an 8-cut (events beyond "played"), and refusals of several
# kinds: a pair on a single, a card too weak, a card on a lone joker, a play out of turn, a card
# not held. A refused tap changes nothing, so the game goes on from where it stood.
HANDS = ["3D 5S 5H 9C KD", "4C 6D 8S JH AS", "3S 7C 7D TS 2H", "4D 6S QC QH JK"]


def tap(seat: int, cards: str = "", *, typed: bool = False) -> dict[str, list[str]]:
    if not cards:
        return {"seat": [str(seat)], "action": ["pass"]}
    picked = {"cards_text": [cards]} if typed else {"cards": cards.split()}
    return {"seat": [str(seat)], "action": ["play"], **picked}


SCRIPT: dict[str, Any] = {
    "hands": [hand.split() for hand in HANDS],
    "taps": [
        tap(2, "3S"),
        tap(3, "♦4", typed=True),
        tap(0, "5S 5H"),
        tap(0, "5S"),
        tap(1, "8S"),
        tap(1, "JH"),
        tap(2, "TS"),
        tap(2, "2H"),
        tap(3, "JK"),
        tap(0, "3D"),
        tap(1, "AS"),
        tap(0, "KH"),
        tap(0),
    ],
}


def judged_by_cpython(script: dict[str, Any]) -> dict[str, Any]:
    record = json.dumps(export_record(new_game(JDF, script["hands"]), []))
    queue: list[object] = []
    answers = []
    for form in script["taps"]:
        answer = json.loads(offline.judge(record, json.dumps(queue), json.dumps(form)))
        answers.append(answer)
        if answer["ok"]:
            queue.append(answer["move"])
    return {"answers": answers, "view": json.loads(offline.state_view(record, json.dumps(queue)))}


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
    expected = judged_by_cpython(SCRIPT)
    assert outcome["answers"] == expected["answers"]
    assert outcome["view"] == expected["view"]
    assert [answer.get("code") for answer in expected["answers"]] == [
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
        "card_not_in_hand",
        None,
    ]
