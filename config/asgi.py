"""ASGI entry point: the live process (docs/live.md), serving the live streams under uvicorn.

It serves no static files (the web process or the proxy does): WhiteNoise's middleware is
synchronous, and one synchronous middleware would send every request through threads."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SERVE_STATIC", "False")

application = get_asgi_application()
