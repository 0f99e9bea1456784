"""`/healthz`: is this instance able to serve (database) and to hand work to workers (broker)?

Load balancers and Docker health checks read the status code: 200 when every required
dependency answers, 503 otherwise. The JSON body says which check failed, and when a worker was
last seen, so an operator can tell a dead broker from an idle worker.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    healthy = True
    for name, check in (("database", check_database), ("broker", check_broker)):
        try:
            checks[name] = check()
        except Exception as exc:  # any failure of a dependency is a 503, never a 500
            logger.warning("health check %s failed: %s", name, exc)
            checks[name] = f"error: {type(exc).__name__}"
            healthy = False
    seen: float | None = None
    if checks.get("database") == "ok":
        try:
            seen = last_worker_seen()
        except DatabaseError as exc:  # e.g. migrations not applied yet: not ready, not a 500
            logger.warning("health check schema failed: %s", exc)
            checks["schema"] = f"error: {type(exc).__name__}"
            healthy = False
    body: dict[str, object] = {"status": "ok" if healthy else "unavailable", "checks": checks}
    if checks.get("database") == "ok" and "schema" not in checks:
        body["worker_last_seen_seconds_ago"] = seen
    return JsonResponse(body, status=200 if healthy else 503)
