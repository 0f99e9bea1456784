"""Settings come from the environment, with safe development defaults and loud failures.

Each case imports the settings in a fresh interpreter, because settings are read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRINT_SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "conn_max_age": db["CONN_MAX_AGE"], "pool": db.get("OPTIONS", {}).get("pool"),
    "broker": settings.CELERY_BROKER_URL, "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "secret": settings.SECRET_KEY, "hosts": settings.ALLOWED_HOSTS,
    "cache": settings.CACHES["default"], "sessions": settings.SESSION_ENGINE,
}))
"""

VARIABLES = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER",
             "ALLOWED_HOSTS", "CONN_MAX_AGE", "DB_POOL", "REDIS_URL",
             "CACHE_KEY_PREFIX")  # fmt: skip


def load_settings(**variables: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(variables, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_defaults_are_sqlite_eager_celery_and_debug() -> None:
    result = load_settings()

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is True
    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["name"].endswith("db.sqlite3")
    assert loaded["eager"] is True
    assert loaded["conn_max_age"] > 0  # persistent connections by default


def test_database_broker_and_hosts_come_from_the_environment() -> None:
    result = load_settings(
        DEBUG="False",
        SECRET_KEY="s3cret-from-env",
        DATABASE_URL="postgres://kakumei:pw@db.internal:5433/kakumei_prod",
        CELERY_BROKER_URL="redis://queue.internal:6380/2",
        CELERY_TASK_ALWAYS_EAGER="False",
        ALLOWED_HOSTS="kakumei.example,www.kakumei.example",
    )

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is False
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert (loaded["name"], loaded["host"]) == ("kakumei_prod", "db.internal")
    assert loaded["broker"] == "redis://queue.internal:6380/2"
    assert loaded["eager"] is False
    assert loaded["secret"] == "s3cret-from-env"
    assert loaded["hosts"] == ["kakumei.example", "www.kakumei.example"]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = load_settings(DEBUG="False")

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_connection_pool_replaces_persistent_connections_when_enabled() -> None:
    result = load_settings(DATABASE_URL="postgres://u@127.0.0.1/k", DB_POOL="True")

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["conn_max_age"] == 0  # Django refuses a pool with persistent connections
    assert loaded["pool"]["max_size"] >= loaded["pool"]["min_size"] >= 1


def test_development_secret_is_random_per_process() -> None:
    first, second = (json.loads(load_settings().stdout)["secret"] for _ in range(2))

    assert first != second
    assert len(first) > 40


def test_without_redis_the_cache_is_the_process_memory_and_sessions_the_database() -> None:
    result = load_settings()

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["cache"]["BACKEND"].endswith("LocMemCache")
    assert loaded["sessions"] == "django.contrib.sessions.backends.db"


def test_redis_url_shares_the_cache_and_sessions_between_processes() -> None:
    result = load_settings(REDIS_URL="redis://cache.internal:6379/1", CACHE_KEY_PREFIX="cup")

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["cache"]["BACKEND"].endswith("RedisCache")
    assert loaded["cache"]["LOCATION"] == "redis://cache.internal:6379/1"
    assert loaded["cache"]["KEY_PREFIX"] == "cup"
    assert loaded["sessions"] == "django.contrib.sessions.backends.cached_db"
