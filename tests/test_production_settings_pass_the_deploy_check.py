"""Production settings (`DEBUG=False`, a long `SECRET_KEY`, `ALLOWED_HOSTS`, `REDIS_URL`) pass
Django's deployment check with no warning: HTTPS redirect, HSTS, secure and HttpOnly cookies,
no framing. Plain HTTP is redirected to HTTPS, except `/healthz`, which the proxy's health check
calls over plain HTTP. A venue LAN on plain HTTP (`HTTPS=False`) redirects nothing."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DEBUG": "False",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "kakumei.example.org,testserver",
    "REDIS_URL": "redis://127.0.0.1:6379/15",
    "DATABASE_URL": "postgres://kakumei:pw@127.0.0.1:5432/kakumei",
    "LOG_LEVEL": "ERROR",
}
# The test session's own variables too: the browser tests' conftest sets
# DJANGO_ALLOW_ASYNC_UNSAFE (Playwright's loop), which production never does.
CLEARED = (
    "DEBUG",
    "HTTPS",
    "SECURE_",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "REDIS_URL",
    "DATABASE_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def run(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(CLEARED)}
    env |= {**PRODUCTION, **variables, "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)


def test_the_deploy_check_finds_nothing() -> None:
    result = run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"])

    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


REQUESTS = """
import json
import django
django.setup()
from django.test import Client
client = Client()
page, health = client.get("/api/schema/?format=json"), client.get("/healthz")
print(json.dumps({"page": [page.status_code, page.get("Location")],
                  "healthz": health.status_code}))
"""


def test_plain_http_is_redirected_except_the_health_check() -> None:
    result = run([sys.executable, "-c", REQUESTS], DATABASE_URL="sqlite://:memory:")

    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["page"] == [301, "https://testserver/api/schema/?format=json"]
    assert seen["healthz"] != 301


def test_a_plain_http_venue_redirects_nothing() -> None:
    result = run([sys.executable, "-c", REQUESTS], DATABASE_URL="sqlite://:memory:", HTTPS="False")

    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["page"] == [200, None]
