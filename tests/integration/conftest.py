"""Integration tests use the real PostgreSQL, Redis and Celery worker fixtures of
tests/conftest.py (`celery_worker_process`, `real_celery`, `spawn_worker`), shared there with
tests/scoring."""

from __future__ import annotations
