"""Health endpoints for load balancers, orchestrators and operators.

- `/healthz/live` (liveness): the process answers requests. No dependency is checked — no
  database, no cache, no broker — so an outage of any of them never gets a healthy process
  restarted. 200 always.
- `/healthz/ready` (readiness; `/healthz` is the same): may this instance take traffic? It
  answers within `HEALTHCHECK_TIMEOUT_SECONDS` (0.5 s) whatever is down: its checks run side by
  side, each in a thread of its own, and one with no answer by then counts as failed (its thread
  ends by itself, every wait in it being bounded too).

  Required (503 without them):
  - **database**: a real write. In a transaction that is rolled back, a row is inserted into
    `django_migrations` (the table Django creates before any other, so the probe does not
    depend on which apps are migrated), under a statement timeout of the check's own. A
    database that is down, restarting, read-only (a standby after a failover,
    `default_transaction_read_only`) or refusing new transactions answers 503; nothing is
    left behind.
  - **schema**: the tables readiness reads (the worker heartbeat, the outbox): a deployment
    whose migrations have not run is 503.

  Optional (reported; the answer stays 200 with `"status": "degraded"`): the **cache** (Redis
  at `REDIS_URL`, asked directly, not through the cache — which fails open — so its outage is
  seen) and the **broker**. Requests do not wait on them: what writes hand to workers waits in
  the outbox (`games.outbox`) until the broker is back, and the cache falls back to working
  without Redis. Details that tell an operator background work is falling behind, without
  changing the answer: when a worker last reported in, and how many tasks wait in the outbox
  and since when.

The JSON body's `status` is `ok`, `degraded` or `unavailable` (503), `checks` names each
check's state (`ok`, `not used (…)`, or `error: …`), and `seconds` how long the checks took; a
failing dependency is a 503 or a reported error, never a 500 and never a hang.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection, connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.cache import cache_up, probed_status
from games import outbox
from scoring.models import WorkerHeartbeat

logger = logging.getLogger(__name__)

REQUIRED = ("database", "schema")
OPTIONAL = ("cache", "broker")
Found = dict[str, object]


def _error(exc: BaseException) -> str:
    return f"error: {type(exc).__name__}"


def write_probe() -> str:
    """Insert a row and roll it back: the database takes writes now."""
    table = connection.ops.quote_name(MigrationRecorder.Migration._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            timeout_ms = round(settings.HEALTHCHECK_TIMEOUT_SECONDS * 1000)
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [str(timeout_ms)])
        cursor.execute(
            f"INSERT INTO {table} (app, name, applied) VALUES (%s, %s, %s)",
            ["healthz", "write probe (rolled back)", timezone.now()],
        )
        transaction.set_rollback(True)
    return "ok"


def last_worker_seen() -> float | None:
    latest = WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
    return None if latest is None else round((timezone.now() - latest).total_seconds(), 1)


def wait_for_a_pooled_connection() -> None:
    """With the pool (`DB_POOL`), queue for a connection no longer than the check may take: a
    check given up must not stay in the pool's queue, ahead of requests and later checks, until
    the pool's own timeout."""
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.open()  # as Django does on its first connection
        pool.putconn(pool.getconn(timeout=settings.HEALTHCHECK_TIMEOUT_SECONDS))


def check_database() -> Found:
    """The required checks, one after the other on this thread's connection."""
    try:
        wait_for_a_pooled_connection()
        write_probe()
    except Exception as exc:
        return {"database": _error(exc)}
    try:
        seen = last_worker_seen()
        waiting, oldest = outbox.waiting()
    except Exception as exc:  # e.g. migrations not applied yet: not ready, not a 500
        return {"database": "ok", "schema": _error(exc)}
    return {
        "database": "ok",
        "schema": "ok",
        "worker_last_seen_seconds_ago": seen,
        "outbox": {"waiting": waiting, "oldest_seconds_ago": oldest},
    }


def check_cache() -> Found:
    if not settings.REDIS_URL:
        return {"cache": "not used (this process's memory)"}
    timeout = settings.HEALTHCHECK_TIMEOUT_SECONDS
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
    except Exception as exc:
        return {"cache": _error(exc)}
    finally:
        client.close()
    return {"cache": "ok"}


def check_broker() -> Found:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"broker": "not used (tasks run eagerly)"}
    timeout = settings.HEALTHCHECK_TIMEOUT_SECONDS
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            connect_timeout=timeout,
            transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:
        return {"broker": _error(exc)}
    return {"broker": "ok"}


CHECKS: dict[str, Callable[[], Found]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
}


def _run(name: str, check: Callable[[], Found], answers: dict[str, Found]) -> None:
    try:
        answers[name] = check()
    except Exception as exc:  # any failure of a dependency is reported, never a 500
        answers[name] = {name: _error(exc)}
    finally:
        connections.close_all()  # this thread's connections (returned to the pool, if any)


def run_checks() -> tuple[Found, float]:
    """Every check, side by side, for at most HEALTHCHECK_TIMEOUT_SECONDS: what they found (a
    check still waiting then is an error), and the seconds taken."""
    started = time.monotonic()
    deadline = started + settings.HEALTHCHECK_TIMEOUT_SECONDS
    answers: dict[str, Found] = {}
    threads = [
        threading.Thread(
            target=_run, args=(name, check, answers), daemon=True, name=f"healthz-{name}"
        )
        for name, check in CHECKS.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    found: Found = {}
    for name in CHECKS:
        found.update(answers.get(name) or {name: "error: no answer in time"})
    return found, round(time.monotonic() - started, 3)


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    found, seconds = run_checks()
    found.setdefault("schema", "not checked (no database)")
    checks = {name: str(found.pop(name)) for name in (*REQUIRED, *OPTIONAL)}
    for name, state in checks.items():
        if state.startswith("error"):
            logger.warning("health check %s failed: %s", name, state)
    is_ready = all(checks[name] == "ok" for name in REQUIRED)
    healthy = all(not checks[name].startswith("error") for name in OPTIONAL)
    body: dict[str, object] = {"checks": checks, **found, "seconds": seconds}
    # This process's fail-open cache (config/cache.py): its outage state and counts, after one
    # bounded read, so an outage shows even in a process that has not used the cache since.
    cache_state = probed_status()
    if cache_state is not None:
        body["cache"] = cache_state
        healthy = healthy and cache_up(cache_state)
    status = ("ok" if healthy else "degraded") if is_ready else "unavailable"
    return JsonResponse({"status": status, **body}, status=200 if is_ready else 503)
