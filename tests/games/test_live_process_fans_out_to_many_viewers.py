"""The live process as deployed: uvicorn serving Django's ASGI application with Redis. Many
viewers hold streams open; a move made elsewhere reaches every one of them within a second,
and the streams hold no database connection."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from games.models import Game
from games.services import submit_move
from tests.conftest import ROOT, database_url_for_test_db

from .conftest import T17_MOVES, Crew

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

VIEWERS = 50


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live_process(shared_redis: dict[str, str]) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        **shared_redis,
        "DATABASE_URL": database_url_for_test_db(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LIVE_FEED_SECONDS": "60",
        "DB_APPLICATION_NAME": "kakumei-live-test",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--timeout-graceful-shutdown", "1"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("uvicorn did not start")
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=20)


class Viewer(threading.Thread):
    """An EventSource: notes each version it receives, with the time."""

    def __init__(self, port: int, table_id: int) -> None:
        super().__init__(daemon=True)
        self.port, self.table_id = port, table_id
        self.versions: list[tuple[str, float]] = []
        self.connected = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", f"/api/tables/{self.table_id}/events/")
        response = conn.getresponse()
        assert response.status == 200
        event = ""
        while line := response.readline():
            text = line.decode().strip()
            if text.startswith("event:"):
                event = text[6:].strip()
            elif text.startswith("data:") and event == "table":
                self.versions.append((json.loads(text[5:])["version"], time.monotonic()))
                self.connected.set()
            elif text.startswith("data:") and event == "bye":
                return


def connections_of_the_live_process() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'kakumei-live-test'"
        )
        return int(cursor.fetchone()[0])


def test_a_move_reaches_every_viewer_within_a_second_and_viewers_hold_no_connection(
    live_process: int, crew: Crew, t17_game: Game
) -> None:
    viewers = [Viewer(live_process, crew.table.pk) for _ in range(VIEWERS)]
    for viewer in viewers:
        viewer.start()
    for viewer in viewers:
        assert viewer.connected.wait(20), "a stream did not open"
    time.sleep(0.5)  # every stream now waits on the hub

    assert connections_of_the_live_process() <= 2  # not one per viewer

    made = time.monotonic()
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    expected = f"{t17_game.pk}.1"
    deadline = made + 5
    while time.monotonic() < deadline and not all(
        any(v == expected for v, _ in viewer.versions) for viewer in viewers
    ):
        time.sleep(0.05)

    delays = [
        next(at for v, at in viewer.versions if v == expected) - made
        for viewer in viewers
        if any(v == expected for v, _ in viewer.versions)
    ]
    assert len(delays) == VIEWERS, f"{VIEWERS - len(delays)} viewers never saw the move"
    assert max(delays) < 1.0
