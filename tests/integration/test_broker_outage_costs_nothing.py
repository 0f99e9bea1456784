"""A broker outage costs the referees nothing and loses nothing.

Everything here is real and runs as in production: gunicorn serving the API, a Celery worker
and beat, PostgreSQL, and a Redis broker of the test's own that the test stops in the middle
of a game and starts again. The move that ends the game is answered at once while the broker
is down; its standings recompute and its webhook wait in the outbox; once the broker is back,
beat's sweep hands them over and the worker counts the result — once — and posts the webhook.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db.models import Sum

from games.auth import issue_device_token
from games.models import Game, GameResult, OutboxMessage
from scoring import webhooks
from scoring.models import WorkerHeartbeat
from scoring.standings import ScopeRef, standings
from tests.conftest import ROOT, RedisServer, database_url_for_test_db, free_port, stop_worker
from tests.games.conftest import T17_MOVES, Crew, crew, t17_game  # noqa: F401 (fixtures)
from tests.scoring.conftest import Receiver, receiver  # noqa: F401 (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.2)


class Stack:
    """gunicorn, a Celery worker and beat on the test database and the test's own broker."""

    def __init__(self, broker: RedisServer, logs: Path) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url_for_test_db(),
            "CONN_MAX_AGE": "0",  # no connection may outlive the test's database
            "CELERY_BROKER_URL": broker.url,
            "CELERY_RESULT_BACKEND": broker.url,
            "CELERY_TASK_ALWAYS_EAGER": "False",
            "OUTBOX_SWEEP_SECONDS": "1",
            "HEARTBEAT_SECONDS": "1",
            "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "True",  # the receiver listens on 127.0.0.1
        }
        self.logs = logs
        self.processes: list[subprocess.Popen[bytes]] = []

    def run(self, name: str, *args: str) -> None:
        with (self.logs / f"{name}.log").open("ab") as log:
            command = [sys.executable, "-m", *args]
            self.processes.append(
                subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=log)
            )

    def start(self) -> None:
        bind = f"127.0.0.1:{self.port}"
        self.run("outage-gunicorn", "gunicorn", "-c", "config/gunicorn.conf.py", "-b", bind,
                 "-w", "1", "--threads", "2", "config.wsgi")  # fmt: skip
        self.run("outage-worker", "celery", "-A", "config", "worker", "--pool=solo", "-Q",
                 "default", "--without-gossip", "--without-mingle", "--loglevel=INFO")  # fmt: skip
        self.run("outage-beat", "celery", "-A", "config", "beat", "--loglevel=INFO",
                 "--schedule", str(self.logs / "outage-beat-schedule"))  # fmt: skip
        wait_until(lambda: self.get("/healthz/ready")[0] == 200, 60, "gunicorn")
        wait_until(WorkerHeartbeat.objects.exists, 60, "the worker's first heartbeat")

    def stop(self) -> None:
        for process in self.processes:
            stop_worker(process)

    def request(self, method: str, path: str, body: object = None, token: str = "") -> tuple:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        data = answer.read()
        conn.close()
        return answer.status, json.loads(data) if data else None

    def get(self, path: str) -> tuple:
        try:
            return self.request("GET", path)
        except OSError:
            return 0, None


@pytest.fixture
def stack(redis_server: RedisServer) -> Iterator[Stack]:
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    running = Stack(redis_server, logs)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def counted_points(tournament_id: int) -> dict[int, int]:
    return {row.entry_id: row.points for row in standings(ScopeRef.tournament(tournament_id))}


def result_points(game: Game) -> dict[int, int]:
    rows = GameResult.objects.filter(game=game).values("entry_id").annotate(total=Sum("points"))
    return {row["entry_id"]: row["total"] for row in rows}


def test_a_game_ended_while_the_broker_is_down_is_counted_once_it_is_back(
    crew: Crew,  # noqa: F811
    t17_game: Game,  # noqa: F811
    receiver: Receiver,  # noqa: F811
    redis_server: RedisServer,
    stack: Stack,
) -> None:
    _, token = issue_device_token(crew.referee, "scorer", tournament=crew.tournament)
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["game.finished"])
    moves = f"/api/games/{t17_game.pk}/moves/"
    for seq, move in enumerate(T17_MOVES[:-1], start=1):
        status, body = stack.request("POST", moves, {"seq": seq, "move": move}, token)
        assert status == 201, body

    redis_server.stop()
    started = time.monotonic()
    status, body = stack.request(
        "POST", moves, {"seq": len(T17_MOVES), "move": T17_MOVES[-1]}, token
    )
    took = time.monotonic() - started

    # The referee's answer does not wait on the broker (it used to take 19 s)...
    assert status == 201 and body["game_over"], body
    assert took < 3.0
    # ...the web stays in service, saying background work waits...
    status, ready = stack.get("/healthz/ready")
    assert (status, ready["status"]) == (200, "degraded")
    assert ready["outbox"]["waiting"] >= 2
    # ...and what must follow is recorded, not lost: the recompute and the webhook wait.
    waiting = set(OutboxMessage.objects.values_list("task", flat=True))
    assert {"scoring.update_standings", "scoring.deliver_webhook"} <= waiting
    assert counted_points(crew.tournament.pk) == {}

    redis_server.start()

    expected = result_points(t17_game)
    wait_until(
        lambda: counted_points(crew.tournament.pk) == expected,
        60,
        "the standings to count the game",
    )
    wait_until(lambda: len(receiver.received) == 1, 30, "the game.finished webhook")
    wait_until(lambda: not OutboxMessage.objects.exists(), 30, "the outbox to empty")
    time.sleep(2)  # a second hand-over would post again or count twice by now
    assert len(receiver.received) == 1
    assert json.loads(receiver.received[0][1])["data"]["game"]["id"] == t17_game.pk
    assert counted_points(crew.tournament.pk) == expected
