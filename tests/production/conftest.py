"""The production-parity stage (issue #36, docs/deployment.md "Production parity in CI"): the
deployed stack as docs/deployment.md and docker-compose.yml run it, started once for the tests
of this folder, which run last in `./dev test` (tests/conftest.py orders them).

Static files are collected with the production storage (WhiteNoise's compressed manifest) into
a directory of the stage's own; then, on free loopback ports, against the test database:
gunicorn (config/gunicorn.conf.py, `DEBUG=False`, the API throttles at their defaults, the
Redis cache and sessions on a Redis database of their own), the uvicorn live process, a Celery
worker (prefork, as Compose runs it) and beat, on a queue of the stage's own so that no other
worker takes its tasks. Plain HTTP on loopback is the venue-LAN configuration (`HTTPS=False`);
the HTTPS settings are what `check --deploy` is run on.

gunicorn alone runs `tests.production.settings`: the production settings plus one URL that
raises, so the real 500 page can be asked for. Every other process runs `config.settings`.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urlencode, urlsplit, urlunsplit
from urllib.request import HTTPCookieProcessor, Request, build_opener

import pytest

# Debian's Chromium, and the screenshots' folder, as the browser tests have them.
from tests.browser.conftest import artifacts, browser_type_launch_args  # noqa: F401
from tests.conftest import ROOT, Stack, database_url_for_test_db, wait_until
from tests.production.urls import SERVER_ERROR_PATH

# Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are safe.
# (This pytest process only: the stack's processes never see it.)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The budget for the whole stage, start-up included.
BUDGET_SECONDS = 300
# Variables of the test session that production never has, or whose defaults it must keep:
# throttles on at their defaults, the async-safety check on, nothing eager.
NOT_IN_PRODUCTION = ("API_THROTTLE_", "DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "HTTPS", "SECURE_",
                     "WEBHOOK_", "CELERY_TASK_ALWAYS_EAGER", "REDIS_URL", "CACHE_KEY_PREFIX",
                     "STATIC_ROOT", "LIVE_FEED_", "PYTEST_")  # fmt: skip

_timing: dict[str, float] = {}
# gunicorn's, uvicorn's and Celery's error lines, and Django's for a 5xx answer.
ERROR_LINE = re.compile(
    r"\[ERROR\]|ERROR[:/]|CRITICAL|"
    rf"(Internal Server Error|Service Unavailable|Bad Gateway): (?!{SERVER_ERROR_PATH})"
)


def redis_database(url: str, offset: int) -> str:
    """`url` with its database number moved by `offset` (mod 16): the stage's cache sits on a
    database of its own beside the test broker's, as Compose puts them on 0 and 1."""
    parts = urlsplit(url)
    number = int(parts.path.lstrip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + offset) % 16}"))


class Production(Stack):
    """gunicorn, the live process, a worker and beat, as deployed (see the module's text)."""

    def __init__(self, logs: Path, static_root: Path) -> None:
        super().__init__(logs, "production", {})
        broker = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
        self.prefix = f"parity-{uuid.uuid4().hex[:12]}"
        self.queue = self.prefix
        self.node = f"{self.prefix}@localhost"
        self.cache_url = redis_database(broker, -1)
        self.live_port = free_port()
        self.env = {k: v for k, v in self.env.items() if not k.startswith(NOT_IN_PRODUCTION)}
        self.env |= {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "False",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # Plain HTTP on loopback, as on a venue LAN (docs/deployment.md).
            "HTTPS": "False",
            "STATIC_ROOT": str(static_root),
            "REDIS_URL": self.cache_url,
            "CACHE_KEY_PREFIX": self.prefix,
            "CELERY_BROKER_URL": broker,
            "CELERY_RESULT_BACKEND": broker,
            "CELERY_TASK_ALWAYS_EAGER": "False",
            "CELERY_TASK_DEFAULT_QUEUE": self.queue,
            # The webhook receiver is the test's own, on loopback (a venue-LAN receiver).
            "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "True",
            "LOG_LEVEL": "INFO",
            # Beat's first heartbeat (which the start-up waits for: beat scheduled, the worker
            # ran it) comes one interval after beat starts: seconds, not the default minute.
            "HEARTBEAT_SECONDS": "3",
        }

    @property
    def live_origin(self) -> str:
        return f"http://127.0.0.1:{self.live_port}"

    def manage(self, *args: str, unset: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
        """`python manage.py <args>` with the stack's settings (but the variables `unset`)."""
        env = {k: v for k, v in self.env.items() if k not in unset}
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    def start_all(self) -> None:
        from scoring.models import WorkerHeartbeat

        web = {**self.env, "DJANGO_SETTINGS_MODULE": "tests.production.settings",
               "DB_POOL": "True", "GUNICORN_WORKERS": "2", "GUNICORN_THREADS": "4",
               "GUNICORN_BIND": f"127.0.0.1:{self.port}"}  # fmt: skip
        self.spawn("gunicorn", web, "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi")
        self.spawn("live", {**self.env, "LIVE_FEED_SECONDS": "300"},
                   "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                   "--port", str(self.live_port), "--no-access-log",
                   "--timeout-graceful-shutdown", "1")  # fmt: skip
        self.spawn("worker", self.env, "celery", "-A", "config", "worker", "-Q", self.queue,
                   "-n", self.node, "--concurrency", "1", "--without-gossip", "--without-mingle",
                   "--loglevel=INFO")  # fmt: skip
        self.spawn("beat", self.env, "celery", "-A", "config", "beat", "--loglevel=INFO",
                   "--schedule", str(self.logs / "production-beat-schedule"))  # fmt: skip
        try:
            wait_until(lambda: self.get("/healthz/ready")[0] == 200, 90, "gunicorn")
            wait_until(lambda: port_open(self.live_port), 60, "the live process")
            wait_until(WorkerHeartbeat.objects.exists, 90, "the worker's first heartbeat")
        except BaseException:
            self.stop()
            for process in ("gunicorn", "live", "worker", "beat"):
                tail = self.log_path(process).read_text(errors="replace").splitlines()[-20:]
                print(f"--- {self.log_path(process)} (last lines)", *tail, sep="\n")
            raise

    def spawn(self, process: str, env: dict[str, str], *args: str) -> None:
        with self.log_path(process).open("ab") as log:
            self.processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", *args], cwd=ROOT, env=env, stdout=log, stderr=log
                )
            )

    def idle(self) -> bool:
        """Nothing waits in the stage's queue and its worker runs or holds nothing."""
        from config.celery import app

        with app.connection_for_read() as conn:
            waiting = conn.default_channel.client.llen(self.queue)
        inspect = app.control.inspect(destination=[self.node], timeout=1.0)
        busy = [*(inspect.active() or {}).get(self.node, []),
                *(inspect.reserved() or {}).get(self.node, [])]  # fmt: skip
        return waiting == 0 and not busy

    def errors_logged(self) -> list[str]:
        """Error lines in the processes' logs (a 5xx answered, a task failed, a process in
        trouble), but the 500 that the error pages' test asks for on purpose."""
        found = []
        for process in ("gunicorn", "live", "worker", "beat"):
            text = self.log_path(process).read_text(errors="replace")
            found += [f"{process}: {line}" for line in text.splitlines()
                      if ERROR_LINE.search(line)]  # fmt: skip
        return found

    def forget_cache(self) -> None:
        import redis

        client = redis.Redis.from_url(self.cache_url)
        for key in client.scan_iter(f"{self.prefix}*"):
            client.delete(key)
        broker = redis.Redis.from_url(self.env["CELERY_BROKER_URL"])
        broker.delete(self.queue)


class Visitor:
    """A browser without scripts, over HTTP: keeps cookies, asks for `language` (none: the
    site's default, Japanese), signs in through the login form as a person does."""

    def __init__(self, origin: str, language: str = "") -> None:
        self.origin = origin
        self.cookies = http.cookiejar.CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.cookies))
        self.headers = {"Accept-Language": language} if language else {}

    def get(self, path: str) -> tuple[int, str]:
        return self.open(Request(self.origin + path, headers=self.headers))

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        body = urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        headers = {**self.headers, "Referer": self.origin + path}
        return self.open(Request(self.origin + path, data=body, headers=headers))

    def open(self, request: Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except HTTPError as error:
            return error.code, error.read().decode()

    def api(self, method: str, path: str, body: object = None, token: str = "") -> tuple:
        """A JSON request to the API, with a device token when given: (status, JSON)."""
        headers = {**self.headers, "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None if body is None else json.dumps(body).encode()
        status, text = self.open(Request(self.origin + path, data, headers, method=method))
        return status, json.loads(text) if text else None

    def log_in(self, username: str, password: str) -> None:
        status, page = self.get("/accounts/login/")
        assert status == 200 and re.search(r'name="csrfmiddlewaretoken"', page)
        status, page = self.post("/accounts/login/", {"username": username, "password": password})
        assert status == 200 and "sessionid" in {c.name for c in self.cookies}, page[:2000]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Overrides the suite's MD5 hasher: the deployed stack checks passwords with its own."""
    settings.PASSWORD_HASHERS = ["tests.production.hashers.FewIterationsPBKDF2"]


@pytest.fixture(scope="package")
def production(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Production]:
    """The deployed stack, on the test database; its logs in test-artifacts/production-*.log."""
    _timing["started"] = time.monotonic()
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    for old in logs.glob("production-*"):
        old.unlink()
    static_root = tmp_path_factory.mktemp("production-static")
    with django_db_blocker.unblock():
        database_url_for_test_db()  # PostgreSQL, or a clear failure
        stack = Production(logs, static_root)
        collected = stack.manage("collectstatic", "--no-input", "-v0")
        assert collected.returncode == 0, collected.stderr
        assert (static_root / "staticfiles.json").exists()  # the manifest storage's manifest
        stack.start_all()
        _timing["ready"] = time.monotonic()
        try:
            yield stack
        finally:
            stack.stop()
            stack.forget_cache()
            _timing["finished"] = time.monotonic()
        # Nothing went wrong in the stack on the way, where no answer showed it.
        errors = stack.errors_logged()
        assert not errors, "\n".join(["Errors in the stack's logs:", *errors])


@pytest.fixture(autouse=True)
def the_stack_settles(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, the worker finishes what the test set going before the test database is
    emptied (a task holding rows while the tables are flushed deadlocks with the flush)."""
    yield
    if "production" in request.fixturenames:
        stack: Production = request.getfixturevalue("production")
        wait_until(stack.idle, 60, "the stack's worker to go idle")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The stage's duration, start-up included, against its budget."""
    if "finished" not in _timing:
        return
    start_up = _timing["ready"] - _timing["started"]
    total = _timing["finished"] - _timing["started"]
    verdict = "within" if total <= BUDGET_SECONDS else "OVER"
    terminalreporter.write_line(
        f"production-parity stage: {total:.0f} s ({start_up:.0f} s to collect static files and "
        f"start the stack), {verdict} its {BUDGET_SECONDS} s budget"
    )
