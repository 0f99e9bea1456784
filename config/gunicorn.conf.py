"""gunicorn settings for the web process (docker-compose.yml, the Dockerfile, benchmarks/).

Threads, not more processes: a request mostly waits on PostgreSQL, and threads share one
process's memory. Live streams are not served here (they would hold a thread each): the proxy
sends them to the async live process (docs/live.md).
"""

from __future__ import annotations

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "4"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# A worker recycled now and then returns memory a long tournament day would otherwise keep.
max_requests = 10_000
max_requests_jitter = 1_000
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
