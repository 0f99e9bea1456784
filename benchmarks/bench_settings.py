"""Settings for benchmarks/api.py only: production settings plus a bare DRF baseline endpoint."""

from __future__ import annotations

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bench_urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
LOGGING = {"version": 1, "disable_existing_loggers": True}
# Plain HTTP on the loopback, no TLS proxy in front: no redirect to HTTPS.
SECURE_SSL_REDIRECT = False
