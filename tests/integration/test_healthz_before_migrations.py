"""A fresh deployment whose migrations have not run yet is "not ready" (503, saying why), not
a server error: a load balancer must keep traffic away without an alarm about a crash."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from pytest_django.fixtures import Settings

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scoring_not_migrated() -> Iterator[None]:
    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", None)])
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.usefixtures("scoring_not_migrated")
def test_healthz_is_503_until_the_schema_is_migrated(client: Client, settings: Settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True

    response = client.get("/healthz/ready")

    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["schema"].startswith("error: ")
