"""A PostgreSQL immediate restart (`pg_ctl restart -m immediate`, crash recovery on start) costs
seconds of 503s, not hanging requests: while devices stream moves and a load balancer polls
`/healthz/ready`, every readiness poll is answered within a second, readiness says 503 only
while PostgreSQL is down (or at most 3 s after it is back), no single request waits 2.5 s or
more, and no acknowledged move is lost or doubled.

The PostgreSQL is the run's own (initdb into a temporary directory, a spare port: never the
machine's); the web is gunicorn on psycopg's pool, as Compose runs it. The run is
`benchmarks/faults.py --postgres-restart --ci` in a process of its own (it configures Django
for that PostgreSQL); its measurements are checked here against the bounds of the rule.
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


def test_readiness_answers_within_a_second_and_503s_end_with_the_restart(tmp_path: Path) -> None:
    report_path = tmp_path / "restart.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run(
        [sys.executable, "benchmarks/faults.py", "--postgres-restart", "--ci",
         "--json", str(report_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=170,
    )  # fmt: skip
    assert report_path.exists(), run.stdout + run.stderr
    report = json.loads(report_path.read_text())

    assert len(report["restarts"]) == 2 and report["moves"] > 100, run.stdout
    for restart in report["restarts"]:
        assert restart["down_seconds"] > 0
        assert restart["longest_ready_answer"] < 1.0, run.stdout
        # The 503s end within 3 s of PostgreSQL taking connections again.
        assert restart["ready_window_seconds"] <= 3.0, run.stdout
        assert restart["move_window_seconds"] <= 3.0, run.stdout
    assert report["ready_polls"] > 20 and report["ready_unanswered"] == 0, run.stdout
    assert report["ready_answer_seconds"]["max"] < 1.0, run.stdout
    assert report["ready_503_while_up"] == 0, run.stdout
    assert report["longest_request"] < 2.5, run.stdout
    assert (report["lost_moves"], report["extra_moves"], report["mismatched_moves"]) == (0, 0, 0)
    assert report["server_errors"] == []
    assert report["problems"] == [], run.stdout
    assert run.returncode == 0, run.stdout + run.stderr
