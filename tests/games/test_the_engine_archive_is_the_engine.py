"""GET /referee/offline/engine.zip (issue #19): the rules engine as one archive, which the
referee's phone keeps for the console's offline mode. It holds exactly the engine's modules,
is the same bytes (and ETag) until the sources change, and runs on its own: no Django, no
installed packages, nothing from the checkout."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import JDF, IllegalMove, Move, apply, new_game

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
HANDS = ["3D 5S 5H 9C KD", "4C 6D 8S JH AS", "3S 7C 7D TS 2H", "4D 6S QC QH JK"]


def fetch_archive(client: Client, **headers: str) -> tuple[int, bytes, dict[str, str]]:
    response = client.get(reverse("referee:offline-engine"), headers=headers)
    return response.status_code, response.content, dict(response.headers)


def engine_files_on_disk() -> set[str]:
    engine = GAMES_DIR / "engine"
    modules = {
        path.relative_to(GAMES_DIR.parent).as_posix()
        for path in engine.rglob("*.py")
        if "__pycache__" not in path.parts
        and not path.is_relative_to(engine / "conformance")
        and path.name != "__main__.py"
    }
    return modules | {"games/__init__.py", "games/offline.py"}


def test_the_archive_holds_exactly_the_engines_modules_as_they_are_on_disk(client: Client) -> None:
    status, body, headers = fetch_archive(client)

    assert status == 200
    assert headers["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert set(archive.namelist()) == engine_files_on_disk()
        for name in archive.namelist():
            assert archive.read(name) == (GAMES_DIR.parent / name).read_bytes(), name


def test_the_same_sources_give_the_same_bytes_and_etag_and_a_304_when_asked_again(
    client: Client,
) -> None:
    first_status, first_body, first_headers = fetch_archive(client)
    second_status, second_body, second_headers = fetch_archive(client)

    assert first_status == second_status == 200
    assert first_body == second_body
    assert first_headers["ETag"] == second_headers["ETag"]
    assert first_headers["Cache-Control"] == "no-cache"  # the service worker revalidates

    status, body, headers = fetch_archive(client, if_none_match=first_headers["ETag"])
    assert status == 304
    assert body == b""
    assert headers["ETag"] == first_headers["ETag"]

    status, _, _ = fetch_archive(client, if_none_match='"an-older-engine"')
    assert status == 200


def test_the_archive_is_open_to_anyone(client: Client) -> None:
    status, _, _ = fetch_archive(client)  # not signed in: the engine is open source, no game data
    assert status == 200


def test_the_unpacked_archive_judges_alone_without_django_or_installed_packages(
    client: Client, tmp_path: Path
) -> None:
    _, body, _ = fetch_archive(client)
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        archive.extractall(tmp_path)
    state = new_game(JDF, HANDS)
    state, _ = apply(state, Move.play(2, "3S"))
    with pytest.raises(IllegalMove) as refusal:  # a pair on a single
        apply(state, Move.play(3, "QC QH"))
    expected_code = refusal.value.code
    code = f"""
import json, os, sys
sys.path.insert(0, {str(tmp_path)!r})
os.environ["KAKUMEI_ENGINE"] = "pure"
from games.engine import JDF, IllegalMove, Move, apply, new_game
import games.engine
state = new_game(JDF, {HANDS!r})
state, events = apply(state, Move.play(2, "3S"))
try:
    apply(state, Move.play(3, "QC QH"))
    code = None
except IllegalMove as refusal:
    code = refusal.code
print(json.dumps({{
    "events": [event.kind for event in events],
    "code": code,
    "engine_file": games.engine.__file__,
    "django_loaded": "django" in sys.modules,
}}))
"""

    # -S: no site-packages (so no Django); -I: no user site, no PYTHON* variables, and not
    # the checkout on sys.path: only the unpacked archive can answer the import.
    run = subprocess.run(
        [sys.executable, "-S", "-I", "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["code"] == expected_code
    assert outcome["events"] == ["played"]
    assert Path(outcome["engine_file"]).is_relative_to(tmp_path)
    assert outcome["django_loaded"] is False
