"""The fault suite's short run (benchmarks/faults.py --ci): while devices stream moves, the
Celery worker is killed, PostgreSQL restarts, Redis stops and a gunicorn worker is killed; no
move is lost or applied twice, every finished game has its results, the standings equal the
independent recount, every game.finished webhook arrives, and every process is back.

The run is the script itself, in a process of its own: it configures Django against a
PostgreSQL and a Redis it starts on spare ports, which this pytest process (configured for the
test database) cannot be. The checks are the script's; this test asserts its report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.integration


def test_moves_results_standings_and_webhooks_survive_every_fault(tmp_path: Path) -> None:
    report_path = tmp_path / "faults.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run(
        [sys.executable, "benchmarks/faults.py", "--ci", "--settle", "60",
         "--json", str(report_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=170,
    )  # fmt: skip
    assert report_path.exists(), run.stdout + run.stderr
    report = json.loads(report_path.read_text())

    assert [fault["name"].split(" (")[0] for fault in report["faults"]] == [
        "Celery worker killed",
        "PostgreSQL restart",
        "Redis stopped for 2 s",
        "gunicorn worker killed",
    ]
    assert report["games_finished"] >= 4 and report["moves"] > 300, run.stdout
    assert (report["lost_moves"], report["extra_moves"], report["mismatched_moves"]) == (0, 0, 0)
    assert report["results_missing"] == 0
    assert report["server_errors"] == []
    assert report["standings_exact"], run.stdout
    assert report["webhooks_missing"] == 0 and report["webhook_events_doubled"] == 0, run.stdout
    assert report["outbox_waiting"] == 0, run.stdout
    assert (report["ready_status"], report["ready"]["status"]) == (200, "ok"), run.stdout
    assert report["problems"] == [], run.stdout
    assert run.returncode == 0, run.stdout + run.stderr
