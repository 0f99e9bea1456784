"""The live process (config/asgi.py) holds a thousand streams in one event loop: a single
synchronous-only middleware would send every request through threads, so none may run there —
even with production settings, where the web process adds WhiteNoise's (synchronous) one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json
import config.asgi
from django.conf import settings
from django.utils.module_loading import import_string
print(json.dumps({m: getattr(import_string(m), "async_capable", False)
                  for m in settings.MIDDLEWARE}))
"""


def middleware_of(entry_point: str) -> dict[str, bool]:
    env = {k: v for k, v in os.environ.items() if k not in ("SERVE_STATIC", "DEBUG")}
    env |= {"DEBUG": "False", "SECRET_KEY": "probe-" + "x" * 50}
    probe = PROBE.replace("config.asgi", entry_point)
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, check=True
    )
    result: dict[str, bool] = json.loads(out.stdout.decode().strip().splitlines()[-1])
    return result


def test_every_middleware_of_the_live_process_is_async_capable() -> None:
    middleware = middleware_of("config.asgi")

    assert middleware  # sessions, language, authentication… run there too
    assert [name for name, capable in middleware.items() if not capable] == []


def test_the_web_process_still_serves_static_files() -> None:
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in middleware_of("config.wsgi")
