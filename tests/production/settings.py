"""The production settings (config/settings.py, read from the same environment) plus one URL
that raises, so that the production-parity stage can see the real 500 page served by gunicorn.
Only the stage's gunicorn runs them (tests/production/conftest.py)."""

from __future__ import annotations

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.production.urls"
