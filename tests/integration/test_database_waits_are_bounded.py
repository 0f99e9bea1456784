"""Every wait on PostgreSQL is bounded, from the environment with production defaults: a
connection attempt (`DB_CONNECT_TIMEOUT_SECONDS`, 2), each statement
(`DB_STATEMENT_TIMEOUT_SECONDS`, 10) and, with the pool, a request's wait for a connection and
the pool's reconnection (`DB_POOL_TIMEOUT_SECONDS`, 1). The statement timeout is checked where
it acts, in the server: a statement past it is cancelled."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.conftest import ROOT, database_url_for_test_db

pytestmark = pytest.mark.integration

SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps(db["OPTIONS"]))
"""

SLOW_STATEMENT = """
import json, time, django
django.setup()
from django.db import OperationalError, connection
started = time.monotonic()
try:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(5)")
    outcome = "finished"
except OperationalError as exc:
    outcome = type(exc.__cause__).__name__
print(json.dumps([outcome, time.monotonic() - started]))
"""


def run(script: str, **variables: str) -> object:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", **variables}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_defaults_bound_connecting_statements_and_the_pool() -> None:
    options = run(SETTINGS, DATABASE_URL="postgres://k@db.internal:5432/k", DB_POOL="True")

    assert isinstance(options, dict)
    assert options["connect_timeout"] == 2
    assert options["options"] == "-c statement_timeout=10000"
    assert (options["pool"]["timeout"], options["pool"]["reconnect_timeout"]) == (1.0, 1.0)


def test_the_bounds_come_from_the_environment() -> None:
    options = run(
        SETTINGS,
        DATABASE_URL="postgres://k@db.internal:5432/k",
        DB_POOL="True",
        DB_CONNECT_TIMEOUT_SECONDS="5",
        DB_STATEMENT_TIMEOUT_SECONDS="0",
        DB_POOL_TIMEOUT_SECONDS="1.5",
    )

    assert isinstance(options, dict)
    assert options["connect_timeout"] == 5
    assert options["options"] == "-c statement_timeout=0"  # 0: no limit
    assert (options["pool"]["timeout"], options["pool"]["reconnect_timeout"]) == (1.5, 1.5)


@pytest.mark.django_db
def test_the_server_applies_the_statement_timeout_to_the_apps_connections() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone() == ("10s",)


@pytest.mark.django_db
def test_a_statement_past_the_timeout_is_cancelled() -> None:
    answer = run(
        SLOW_STATEMENT, DATABASE_URL=database_url_for_test_db(), DB_STATEMENT_TIMEOUT_SECONDS="0.3"
    )

    assert isinstance(answer, list)
    outcome, seconds = answer
    assert outcome == "QueryCanceled"
    assert 0.3 <= seconds < 2  # cancelled by the server, not waited out
