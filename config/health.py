"""Health endpoints for load balancers, orchestrators and operators.

- `/healthz/live` (liveness): the process answers requests. No dependency is checked, so a
  database or broker outage never gets a healthy process restarted. 200 always.
- `/healthz/ready` (readiness; `/healthz` is the same): may this instance take traffic? The web
  needs the **database** (and its migrated schema): 503 without it. The **broker** is reported
  but not required: moves, results and pages do not wait on it — what writes hand to workers
  waits in the outbox (`games.outbox`) until it is back. So is the **worker** (when it last
  reported in) and the **outbox** (how many tasks wait, and since when), which tell an operator
  that background work is falling behind.

The JSON body's `status` is `ok`, `degraded` (ready, but the broker is away: background work
waits) or `unavailable` (503), and names each check's state; a failing dependency is a 503 or
a reported error, never a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.cache import cache_up, probed_status
from games import outbox
from scoring.models import WorkerHeartbeat

logger = logging.getLogger(__name__)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "not used (tasks run eagerly)"
    timeout = settings.HEALTHCHECK_BROKER_TIMEOUT
    with Connection(
        settings.CELERY_BROKER_URL,
        connect_timeout=timeout,
        transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
    ) as conn:
        conn.ensure_connection(max_retries=1, timeout=timeout)
    return "ok"


def last_worker_seen() -> float | None:
    latest = WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
    return None if latest is None else round((timezone.now() - latest).total_seconds(), 1)


def _run(checks: dict[str, str], name: str, check: Callable[[], str]) -> bool:
    try:
        checks[name] = check()
    except Exception as exc:  # any failure of a dependency is reported, never a 500
        logger.warning("health check %s failed: %s", name, exc)
        checks[name] = f"error: {type(exc).__name__}"
        return False
    return True


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    ready = _run(checks, "database", check_database)
    broker = _run(checks, "broker", check_broker)  # reported, not required (module docstring)
    body: dict[str, object] = {"checks": checks}
    if ready:
        try:
            body["worker_last_seen_seconds_ago"] = last_worker_seen()
            waiting, oldest = outbox.waiting()
        except DatabaseError as exc:  # e.g. migrations not applied yet: not ready, not a 500
            logger.warning("health check schema failed: %s", exc)
            checks["schema"] = f"error: {type(exc).__name__}"
            ready = False
        else:
            body["outbox"] = {"waiting": waiting, "oldest_seconds_ago": oldest}
    # The cache fails open (config/cache.py): reported, not required. Probed first, so an
    # outage shows even in a process that has not used the cache since it began.
    cache_state = probed_status()
    if cache_state is not None:
        body["cache"] = cache_state
    status = ("ok" if broker and cache_up(cache_state) else "degraded") if ready else "unavailable"
    body = {"status": status, **body}
    return JsonResponse(body, status=200 if ready else 503)
