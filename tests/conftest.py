"""Real components shared by every test folder: PostgreSQL, a Redis broker and Celery worker
processes (moved here from tests/integration/conftest.py so tests/scoring can use them too).

The session worker is started once against the *test* database, after pytest-django has
created it, and stopped before the database is destroyed. Tests that enqueue work commit their
data (`transactional_db`) so the worker's connection can see it. `spawn_worker` starts further
workers on their own queue — ones a test may kill and restart.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test import Client
from django.utils import timezone

from config.celery import app as celery_app
from tests.factories import Clock, browser

ROOT = Path(__file__).resolve().parents[1]


def database_url_for_test_db() -> str:
    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail(
            "Integration tests need PostgreSQL: run them with ./dev test "
            "(or set DATABASE_URL=postgres://postgres@127.0.0.1:5432/kakumei)."
        )
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def spawn_worker(
    database_url: str,
    node: str,
    *,
    queue: str = "default",
    log_name: str = "celery-worker",
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start a `celery worker` process (solo pool) on `queue`; returns once it answers pings."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "CONN_MAX_AGE": "0",  # no connection may outlive a task, or DROP DATABASE would block
        "CELERY_TASK_ALWAYS_EAGER": "False",
        **(extra_env or {}),
    }
    log_path = ROOT / "test-artifacts" / f"{log_name}.log"
    log_path.parent.mkdir(exist_ok=True)
    with log_path.open("ab") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "-Q", queue, "-n", node, "--without-gossip", "--without-mingle",
             "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while not celery_app.control.ping(destination=[node], timeout=1.0):
        if worker.poll() is not None or time.monotonic() > deadline:
            stop_worker(worker)
            pytest.fail(f"Celery worker did not start; see {log_path}")
    return worker


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is not None:
        return
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A `celery worker` subprocess consuming the test broker; yields its node name."""
    with django_db_blocker.unblock():
        database_url = database_url_for_test_db()
    node = f"kakumei-test-{uuid.uuid4().hex[:8]}@localhost"
    celery_app.control.purge()  # tasks left over by an aborted earlier run
    worker = spawn_worker(database_url, node)
    try:
        yield node
    finally:
        stop_worker(worker)


@pytest.fixture
def real_celery(celery_worker_process: str, transactional_db: None) -> Iterator[str]:
    """Send tasks through the broker to the worker process instead of running them eagerly.

    Afterwards the worker is let finish what the test set going: a task still running when
    the test database is flushed holds its rows, and the flush deadlocks with it."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        yield celery_worker_process
    finally:
        try:
            wait_until(lambda: worker_idle(celery_worker_process), 60, "the worker to go idle")
        finally:
            celery_app.conf.task_always_eager = previous


def worker_idle(node: str) -> bool:
    """Nothing waits in the default queue and the worker runs, holds or schedules nothing."""
    with celery_app.connection_for_read() as conn:
        waiting = conn.default_channel.client.llen("default")  # the broker is Redis
    inspect = celery_app.control.inspect(destination=[node], timeout=1.0)
    busy = [
        *(inspect.active() or {}).get(node, []),
        *(inspect.reserved() or {}).get(node, []),
        *(inspect.scheduled() or {}).get(node, []),
    ]
    return waiting == 0 and not busy


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Factories give every user a password; the production hasher's deliberate slowness
    (hundreds of thousands of PBKDF2 rounds) would dominate the suite. Logins still check
    passwords for real, with a fast hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last (after pytest-django's own ordering, kept otherwise): Playwright's
    sync API keeps an event loop running in the main thread for the rest of the session, and
    Django's test client cannot call an async view (the live feed) from a thread where a loop
    runs. The production-parity stage (tests/production) runs after everything else, in one
    stretch: its stack of processes is started once for it and stopped when it ends."""
    items.sort(key=lambda item: (_in_the_production_stage(item), _drives_a_browser(item)))


def _in_the_production_stage(item: pytest.Item) -> bool:
    return (ROOT / "tests" / "production") in item.path.parents


def _drives_a_browser(item: pytest.Item) -> bool:
    # Marked or not: any test that asks for Playwright's browser (`page` asks for it too)
    # starts that loop, so it is told by its fixtures, not only by the marker.
    return item.get_closest_marker("browser") is not None or "browser" in getattr(
        item, "fixturenames", ()
    )


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache: versions, rendered pages and token lookups cached
    by one test must not answer another's requests. Only this process's memory is cleared:
    clearing a Redis cache would flush a whole Redis database (tests using Redis give their
    keys a prefix of their own instead)."""
    local = isinstance(caches["default"], LocMemCache)
    if local:
        caches["default"].clear()
    yield
    if local:
        caches["default"].clear()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A controlled clock (tests.factories.Clock) for a test that asserts a value read from the
    clock: ``timezone.now()`` answers the clock, which starts at ``Clock.START`` and moves only
    by ``clock.advance(seconds)``. This process only: a worker process keeps the real clock."""
    controlled = Clock()
    monkeypatch.setattr(timezone, "now", controlled)
    return controlled


@pytest.fixture
def client() -> Client:
    """A browser that asks for English (most tests read the English pages; the site's default,
    for a browser that asks for nothing, is Japanese). Tests of the Japanese pages use
    `client_ja`."""
    return browser("en")


@pytest.fixture
def client_ja() -> Client:
    """A browser that asks for Japanese, as a phone set to Japanese does."""
    return browser("ja")


@pytest.fixture
def shared_redis(settings: Any) -> Iterator[dict[str, str]]:
    """Redis as production uses it (the cache, sessions, the live channel: `REDIS_URL`), under
    a key prefix of this test's own; only those keys are deleted afterwards. Yields the
    variables another process needs to share it."""
    import redis

    url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    prefix = f"test-{uuid.uuid4().hex}"
    settings.REDIS_URL = url
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    yield {"REDIS_URL": url, "CACHE_KEY_PREFIX": prefix}
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


@pytest.fixture
def redis_cache(
    settings: Any, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> RedisServer:
    """The cache and sessions as production has them (`REDIS_URL`: the fail-open Redis cache
    with its bounded waits, ``cached_db`` sessions), on a Redis of the test's own, which the
    test may stop and start. No outage seen by an earlier test carries over."""
    monkeypatch.setattr("config.cache._outages", {})
    settings.REDIS_URL = redis_server.url
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": "kakumei",
            "OPTIONS": {
                "socket_connect_timeout": settings.REDIS_CONNECT_TIMEOUT_SECONDS,
                "socket_timeout": settings.REDIS_TIMEOUT_SECONDS,
            },
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    return redis_server


def run_with_settings(script: str, **variables: str) -> Any:
    """Run `script` (Python that prints JSON last) in a process whose settings come from
    `variables` on an in-memory SQLite database, as a server started with them would; returns
    what it printed last. For settings read once at start-up (rates, authentication classes)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "API_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": "sqlite://:memory:",
        "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "ERROR",
        **variables,
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """A redis-server of the test's own on a spare port, which the test may stop and start
    again (on the same port) to see what a real broker outage does."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed; ./dev test installs it")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.1)


class Stack:
    """The app's own processes, run as in production on the test database: gunicorn
    (config/gunicorn.conf.py) and, when asked for, a Celery worker and beat. `env` goes on top
    of the test's environment (a broker of the test's own, throttles off, …); each process
    logs to `<logs>/<name>-<process>.log`. Shared by the tests that need a real server: a
    broker outage, the API fuzzing."""

    def __init__(self, logs: Path, name: str, env: dict[str, str]) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url_for_test_db(),
            "CONN_MAX_AGE": "0",  # no connection may outlive the test's database
            **env,
        }
        self.logs = logs
        self.name = name
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_path(self, process: str) -> Path:
        return self.logs / f"{self.name}-{process}.log"

    def run(self, process: str, *args: str) -> None:
        with self.log_path(process).open("ab") as log:
            command = [sys.executable, "-m", *args]
            self.processes.append(
                subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=log)
            )

    def start(self, *, worker: bool = True, beat: bool = True) -> None:
        """gunicorn (one worker, two threads), and a worker and beat unless told otherwise;
        returns once the web answers /healthz/ready and the worker has sent a heartbeat."""
        from scoring.models import WorkerHeartbeat

        bind = f"127.0.0.1:{self.port}"
        self.run("gunicorn", "gunicorn", "-c", "config/gunicorn.conf.py", "-b", bind,
                 "-w", "1", "--threads", "2", "config.wsgi")  # fmt: skip
        if worker:
            self.run("worker", "celery", "-A", "config", "worker", "--pool=solo",
                     "-Q", "default", "--without-gossip", "--without-mingle",
                     "--loglevel=INFO")  # fmt: skip
        if beat:
            self.run("beat", "celery", "-A", "config", "beat", "--loglevel=INFO",
                     "--schedule", str(self.logs / f"{self.name}-beat-schedule"))  # fmt: skip
        wait_until(lambda: self.get("/healthz/ready")[0] == 200, 60, "gunicorn")
        if worker:
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
