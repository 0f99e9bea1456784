"""A bot-only event plays end to end over the UECda protocol on loopback TCP: five bundled
bots (tools/uecda_bot.py) connect to `manage.py uecda_bridge`, which plays the round's table
through the services; every game is refereed by the engine and confirmed, its record exports
and replays to the stored result, and the standings (counted by the Celery worker) list the
five bots with their points and the bot marker."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client

from games.engine.record import replay
from games.models import Game
from games.records import export_game
from scoring.selectors import board_rows
from scoring.standings import ScopeRef
from tests.conftest import ROOT, database_url_for_test_db, free_port, wait_until
from tests.factories import bot_event

pytestmark = pytest.mark.integration

BOTS = ("bot1", "bot2", "bot3", "bot4", "bot5")
GAMES = 3
LOGS = ROOT / "test-artifacts"


def _start(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait_for_listener(port: int, bridge: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            assert bridge.poll() is None, (LOGS / "uecda-bridge.log").read_text()
            assert time.monotonic() < deadline, "the bridge did not listen"
            time.sleep(0.1)


def test_five_bots_play_a_round_through_the_bridge(real_celery: str) -> None:
    tournament = bot_event(BOTS, games_per_set=GAMES)
    port = free_port()
    LOGS.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url_for_test_db(),
        "CONN_MAX_AGE": "0",  # no connection may outlive the bridge, or DROP DATABASE blocks
        "CELERY_TASK_ALWAYS_EAGER": "False",  # the worker counts the standings
    }
    bridge = _start(
        [sys.executable, "manage.py", "uecda_bridge", "--tournament", tournament.slug,
         "--port", str(port), "--rounds", "1", "--timeout", "20"],
        LOGS / "uecda-bridge.log", env,
    )  # fmt: skip
    bots: list[subprocess.Popen[bytes]] = []
    try:
        _wait_for_listener(port, bridge)
        for name in BOTS:
            command = [sys.executable, "tools/uecda_bot.py", "--port", str(port), "--name", name]
            bots.append(_start(command, LOGS / f"uecda-{name}.log", env))
        assert bridge.wait(timeout=180) == 0, (LOGS / "uecda-bridge.log").read_text()
        assert [bot.wait(timeout=30) for bot in bots] == [0] * len(BOTS)
    finally:
        for process in [bridge, *bots]:
            if process.poll() is None:
                process.kill()
                process.wait()

    games = list(Game.objects.filter(table__round__stage__tournament=tournament))
    assert len(games) == GAMES
    for game in games:
        assert game.status == Game.Status.CONFIRMED
        judged = replay(export_game(game, game.moves.order_by("seq")))
        assert judged.finished
        assert all(verdict.ok for verdict in judged.moves)
        placings = judged.family.placings(judged.state)
        assert {p["seat"]: p["place"] for p in placings} == {
            r.seat: r.place for r in game.results.all()
        }
        # From the second game the titles exchange cards: 大富豪 and 富豪 chose theirs over
        # the protocol, the lower titles gave their strongest.
        assert len(judged.exchange) == (0 if game.game_number == 1 else 4)

    def counted() -> bool:
        rows = list(board_rows(ScopeRef.tournament(tournament.pk)))
        return len(rows) == len(BOTS) and sum(r["games"] for r in rows) == len(BOTS) * GAMES

    wait_until(counted, 60, "the standings to count every game")
    rows = list(board_rows(ScopeRef.tournament(tournament.pk)))
    assert sorted(r["player_bot"] for r in rows) == list(BOTS)
    assert sum(r["points"] for r in rows) == GAMES * (5 + 4 + 3 + 2 + 1)
    for url in (f"/standings/{tournament.slug}/", f"/embed/{tournament.slug}/"):
        page = Client().get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert page.count('data-testid="bot-marker">ボット</span>') == len(BOTS), url
