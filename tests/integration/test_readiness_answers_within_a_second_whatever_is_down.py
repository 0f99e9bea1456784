"""`/healthz/ready` answers within a second whatever is down, and `/healthz/live` never touches a
dependency: a load balancer's probe must not hang, and a healthy process must not be restarted
for an outage elsewhere.

"Down" here is the worst kind: a port that accepts connections and then never answers (a host
whose service hangs, a half-open proxy), for PostgreSQL, the cache and the broker at once, as
well as ports where nothing listens. The process is a fresh interpreter configured for it, as a
server started in the middle of an outage would be.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.conftest import ROOT, free_port

pytestmark = pytest.mark.integration

PROBE = """
import json, time, django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="localhost")
answers = {}
for path in ("/healthz/live", "/healthz/ready", "/healthz/ready"):
    started = time.monotonic()
    response = client.get(path)
    answers.setdefault(path, []).append(
        [response.status_code, response.json(), time.monotonic() - started]
    )
print(json.dumps(answers))
"""


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts every connection (the kernel completes the handshake) and never
    says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


def probe(database: str, redis: str) -> dict[str, list[list[object]]]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "CELERY"))},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "CELERY_BROKER_URL": redis,
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "LOG_LEVEL": "CRITICAL",
    }
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    answers: dict[str, list[list[object]]] = json.loads(run.stdout.strip().splitlines()[-1])
    return answers


def assert_alive_and_not_ready(answers: dict[str, list[list[object]]]) -> None:
    [(status, body, _)] = answers["/healthz/live"]
    assert (status, body) == (200, {"status": "ok"})
    for status, body, seconds in answers["/healthz/ready"]:
        assert status == 503
        assert isinstance(body, dict) and body["status"] == "unavailable"
        assert str(body["checks"]["database"]).startswith("error")
        assert str(body["checks"]["cache"]).startswith("error")
        assert str(body["checks"]["broker"]).startswith("error")
        assert isinstance(seconds, float) and seconds < 1.0


def test_with_every_dependency_hanging_ready_answers_503_within_a_second(
    silent_port: int,
) -> None:
    answers = probe(
        f"postgres://postgres@127.0.0.1:{silent_port}/kakumei",
        f"redis://127.0.0.1:{silent_port}/0",
    )

    assert_alive_and_not_ready(answers)


def test_with_the_database_and_redis_unreachable_live_is_200_and_ready_503() -> None:
    answers = probe(
        f"postgres://postgres@127.0.0.1:{free_port()}/kakumei",
        f"redis://127.0.0.1:{free_port()}/0",
    )

    assert_alive_and_not_ready(answers)
