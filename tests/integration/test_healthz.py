"""`/healthz` answers 200 while PostgreSQL and the broker answer, and 503 once the broker is gone.

The broker here is a real redis-server process started for the test, then stopped: the health
check must notice a broker that really went away.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

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


def test_healthz_is_200_with_database_and_broker_up(
    client: Client, broker_settings: Server
) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "broker": "ok"}


def test_healthz_is_503_when_the_broker_goes_down(client: Client, broker_settings: Server) -> None:
    assert client.get("/healthz").status_code == 200
    broker_settings.kill()
    broker_settings.wait()

    started = time.monotonic()
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("error")
    # A load balancer's probe must get its answer within the configured timeout, not hang.
    assert time.monotonic() - started < 5


def test_healthz_reports_how_long_ago_a_worker_was_seen(client: Client, settings: Settings) -> None:
    from scoring.services import record_heartbeat

    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert client.get("/healthz").json()["worker_last_seen_seconds_ago"] is None

    record_heartbeat("worker-1@host")

    body = client.get("/healthz").json()
    assert body["checks"]["broker"] == "not used (tasks run eagerly)"
    assert 0 <= body["worker_last_seen_seconds_ago"] < 5
