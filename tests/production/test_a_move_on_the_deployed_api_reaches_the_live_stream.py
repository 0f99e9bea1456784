"""Deployed, a referee's device sends a move to gunicorn's API and a viewer's stream, held open
by the separate uvicorn live process, receives the table's new version within two seconds
(gunicorn publishes it on the Redis live channel; the live process fans it out): the live page
updates. The public live answer of the table (gunicorn) then shows the move."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from games.auth import issue_device_token
from games.models import Game
from tests.games.conftest import T17_MOVES, Crew
from tests.games.conftest import crew as crew  # the referee crew fixture, shared
from tests.games.conftest import t17_game as t17_game
from tests.production.conftest import Production, Visitor

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


class Stream(threading.Thread):
    """An EventSource on the live process: the versions of `table` it received, with times."""

    def __init__(self, port: int, table: int) -> None:
        super().__init__(daemon=True)
        self.port, self.table = port, table
        self.versions: list[tuple[str, float]] = []
        self.opened = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", f"/api/tables/{self.table}/events/")
        answer = conn.getresponse()
        assert answer.status == 200
        event = ""
        while line := answer.readline():
            text = line.decode().strip()
            if text.startswith("event:"):
                event = text[6:].strip()
            elif text.startswith("data:") and event == "table":
                self.versions.append((json.loads(text[5:])["version"], time.monotonic()))
                self.opened.set()
                if len(self.versions) > 1:
                    return


def test_a_move_reaches_a_viewer_of_the_live_process(
    production: Production, crew: Crew, t17_game: Game
) -> None:
    _, token = issue_device_token(crew.referee, "phone")
    stream = Stream(production.live_port, crew.table.pk)
    stream.start()
    assert stream.opened.wait(20), "the live process opened no stream"
    time.sleep(0.5)  # the stream now waits on the live channel

    sent = time.monotonic()
    status, answer = Visitor(production.origin).api(
        "POST", f"/api/games/{t17_game.pk}/moves/", {"seq": 1, "move": T17_MOVES[0]}, token
    )

    assert status == 201, answer
    stream.join(10)
    versions = [version for version, _ in stream.versions]
    assert versions[-1] == f"{t17_game.pk}.1", versions
    assert stream.versions[-1][1] - sent < 2.0
    status, live = Visitor(production.origin).api("GET", f"/api/tables/{crew.table.pk}/live/")
    assert status == 200 and live["game"]["last_seq"] == 1, live
