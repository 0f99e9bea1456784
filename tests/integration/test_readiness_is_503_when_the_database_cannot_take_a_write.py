"""A database that answers reads but refuses writes (a standby after a failover, a database set
read-only) cannot take a move: readiness is 503 for it, naming the database, and the probe it
writes leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from pytest_django.fixtures import Settings

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def database_read_only() -> Iterator[None]:
    """New connections to the test database start read-only (as on a hot standby); this one,
    opened before, can still undo it."""
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {name} RESET default_transaction_read_only")


def test_a_read_only_database_is_not_ready(
    client: Client, settings: Settings, database_read_only: None
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True

    response = client.get("/healthz/ready")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"].startswith("error: ")


def test_a_writable_database_is_ready_and_the_probe_leaves_no_row(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    before = MigrationRecorder.Migration.objects.count()

    response = client.get("/healthz/ready")

    assert response.status_code == 200
    assert response.json()["checks"]["database"] == "ok"
    assert MigrationRecorder.Migration.objects.count() == before
    assert not MigrationRecorder.Migration.objects.filter(app="healthz").exists()
