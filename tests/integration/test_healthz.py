"""Readiness (`/healthz/ready`, and `/healthz`) needs the database and reports the cache, the
broker, the worker and the outbox; liveness (`/healthz/live`) needs nothing.

The cache and broker here are a real redis-server process started for the test, then stopped:
the check must notice a Redis that really went away, and still keep the web in service (moves
do not wait on it). The database outage is real too: a process pointed at a port where no
PostgreSQL listens. The checks run on connections of their own (config/health.py), so the
tests that put rows where readiness reads them commit them (`transactional_db`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from games.models import OutboxMessage
from tests.conftest import RedisServer, free_port

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture
def broker_settings(settings: Settings, redis_server: RedisServer) -> RedisServer:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_server.url
    settings.REDIS_URL = redis_server.url
    return redis_server


def test_ready_is_200_with_database_and_broker_up(
    client: Client, broker_settings: RedisServer
) -> None:
    response = client.get("/healthz/ready")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "schema": "ok", "cache": "ok", "broker": "ok"}
    assert body["outbox"] == {"waiting": 0, "oldest_seconds_ago": None}


def test_healthz_is_the_readiness_check(client: Client, broker_settings: RedisServer) -> None:
    def answer(path: str) -> dict[str, object]:
        body = client.get(path).json()
        del body["seconds"]
        return body

    assert answer("/healthz") == answer("/healthz/ready")


def test_a_redis_outage_is_reported_but_keeps_the_web_in_service(
    client: Client, broker_settings: RedisServer
) -> None:
    assert client.get("/healthz/ready").status_code == 200
    broker_settings.stop()

    started = time.monotonic()
    response = client.get("/healthz/ready")

    # Moves and pages wait on neither the broker nor the cache: a load balancer must keep
    # sending traffic.
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert (body["checks"]["database"], body["checks"]["schema"]) == ("ok", "ok")
    assert body["checks"]["cache"].startswith("error")
    assert body["checks"]["broker"].startswith("error")
    # A load balancer's probe gets its answer within a second, not after the broker's retries.
    assert time.monotonic() - started < 1


@pytest.mark.django_db(transaction=True)
def test_ready_reports_the_work_waiting_in_the_outbox(client: Client, settings: Settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    OutboxMessage.objects.create(task="scoring.update_standings", kwargs={"tournament_id": 1})

    body = client.get("/healthz/ready").json()

    assert body["outbox"]["waiting"] == 1
    assert 0 <= body["outbox"]["oldest_seconds_ago"] < 5


@pytest.mark.django_db(transaction=True)
def test_ready_reports_how_long_ago_a_worker_was_seen(client: Client, settings: Settings) -> None:
    from scoring.services import record_heartbeat

    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert client.get("/healthz/ready").json()["worker_last_seen_seconds_ago"] is None

    record_heartbeat("worker-1@host")

    body = client.get("/healthz/ready").json()
    assert body["checks"]["broker"] == "not used (tasks run eagerly)"
    assert 0 <= body["worker_last_seen_seconds_ago"] < 5


def test_live_asks_no_dependency(client: Client, broker_settings: RedisServer) -> None:
    broker_settings.stop()

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
