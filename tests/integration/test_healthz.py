"""Readiness (`/healthz/ready`, and `/healthz`) needs the database and reports the broker, the
worker and the outbox; liveness (`/healthz/live`) needs nothing.

The broker here is a real redis-server process started for the test, then stopped: the check
must notice a broker that really went away, and still keep the web in service (moves do not
wait on the broker). The database outage is real too: a process pointed at a port where no
PostgreSQL listens.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from games.models import OutboxMessage

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

Server = subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def own_redis() -> Iterator[tuple[Server, int]]:
    server_binary = shutil.which("redis-server")
    if server_binary is None:
        pytest.fail("redis-server is not installed; ./dev test installs it")
    port = free_port()
    server = subprocess.Popen(
        [
            server_binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield server, port
    server.kill()
    server.wait()


@pytest.fixture
def broker_settings(
    settings: Settings, own_redis: tuple[subprocess.Popen[bytes], int]
) -> subprocess.Popen[bytes]:
    server, port = own_redis
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/0"
    settings.HEALTHCHECK_BROKER_TIMEOUT = 1.0
    return server


def test_ready_is_200_with_database_and_broker_up(client: Client, broker_settings: Server) -> None:
    response = client.get("/healthz/ready")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "broker": "ok"}
    assert body["outbox"] == {"waiting": 0, "oldest_seconds_ago": None}


def test_healthz_is_the_readiness_check(client: Client, broker_settings: Server) -> None:
    assert client.get("/healthz").json() == client.get("/healthz/ready").json()


def test_a_broker_outage_is_reported_but_keeps_the_web_in_service(
    client: Client, broker_settings: Server
) -> None:
    assert client.get("/healthz/ready").status_code == 200
    broker_settings.kill()
    broker_settings.wait()

    started = time.monotonic()
    response = client.get("/healthz/ready")

    # Moves and pages do not wait on the broker: a load balancer must keep sending traffic.
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("error")
    # A load balancer's probe must get its answer within the configured timeout, not hang.
    assert time.monotonic() - started < 5


def test_ready_reports_the_work_waiting_in_the_outbox(client: Client, settings: Settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    OutboxMessage.objects.create(task="scoring.update_standings", kwargs={"tournament_id": 1})

    body = client.get("/healthz/ready").json()

    assert body["outbox"]["waiting"] == 1
    assert 0 <= body["outbox"]["oldest_seconds_ago"] < 5


def test_ready_reports_how_long_ago_a_worker_was_seen(client: Client, settings: Settings) -> None:
    from scoring.services import record_heartbeat

    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert client.get("/healthz/ready").json()["worker_last_seen_seconds_ago"] is None

    record_heartbeat("worker-1@host")

    body = client.get("/healthz/ready").json()
    assert body["checks"]["broker"] == "not used (tasks run eagerly)"
    assert 0 <= body["worker_last_seen_seconds_ago"] < 5


def test_live_asks_no_dependency(client: Client, broker_settings: Server) -> None:
    broker_settings.kill()
    broker_settings.wait()

    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz/live")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert len(queries) == 0


PROBE = """
import json, django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="localhost")
print(json.dumps({path: [r.status_code, r.json()] for path in ("/healthz/live", "/healthz/ready")
                  for r in [client.get(path)]}))
"""


def test_without_the_database_the_process_is_alive_but_not_ready() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/kakumei",
        "CELERY_TASK_ALWAYS_EAGER": "True",
    }

    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )

    answers = json.loads(out.stdout.strip().splitlines()[-1])
    assert answers["/healthz/live"] == [200, {"status": "ok"}]
    status, body = answers["/healthz/ready"]
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["checks"]["database"].startswith("error")
