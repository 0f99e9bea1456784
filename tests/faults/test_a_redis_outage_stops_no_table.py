"""A Redis outage stops no table: with Redis the cache, the sessions' cache and the broker, and
the API throttles on as in production, a table plays on through the API while Redis is down —
every move accepted within a second, none lost — and once Redis is back, the follow-up work
waiting in the outbox (the standings, the game.finished webhook) completes.

Everything is real: gunicorn, a Celery worker and beat, PostgreSQL, and a redis-server of the
test's own on a spare port (never the machine's shared one), which the test stops in the middle
of the game and starts again.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator

import pytest

from games.auth import issue_device_token
from games.engine import apply, legal_moves
from games.engine.daifugo import move_to_json
from games.models import Game, GameResult, Move, OutboxMessage
from games.services import start_game
from games.state import initial_state
from scoring import webhooks
from scoring.standings import ScopeRef, standings
from tests.conftest import ROOT, RedisServer, Stack, wait_until
from tests.games.conftest import Crew, crew  # noqa: F401 (fixture)
from tests.scoring.conftest import Receiver, receiver  # noqa: F401 (fixture)
from tests.scoring.oracle import as_lines, recount
from tournaments.points import DEFAULT_TIE_BREAKS

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The documented bound on a move's answer while Redis is away (docs/deployment.md).
MOVE_SECONDS = 1.0


@pytest.fixture
def stack(redis_server: RedisServer) -> Iterator[Stack]:
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    running = Stack(
        logs,
        "redis-outage",
        {
            "REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/1",  # the cache and sessions
            "CELERY_BROKER_URL": redis_server.url,
            "CELERY_RESULT_BACKEND": redis_server.url,
            "CELERY_TASK_ALWAYS_EAGER": "False",
            "OUTBOX_SWEEP_SECONDS": "1",
            "HEARTBEAT_SECONDS": "1",
            "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "True",  # the receiver listens on 127.0.0.1
        },
    )
    # The throttles as production has them: their rates' defaults, counted in the cache.
    running.env = {k: v for k, v in running.env.items() if not k.startswith("API_THROTTLE_")}
    try:
        running.start()
        yield running
    finally:
        running.stop()


def the_engines_moves(game: Game) -> list[dict[str, object]]:
    """The whole game, as a device sends it: at each turn the first legal play (a pass only
    when nothing can be played), until the game is over."""
    state, moves = initial_state(game), []
    while not state.is_over:
        legal = list(legal_moves(state))
        move = next((m for m in legal if not m.is_pass), legal[0])
        state, _ = apply(state, move)
        moves.append(move_to_json(move))
    return moves


def public_page(stack: Stack, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
    conn.request("GET", path, headers={"Accept-Language": "ja"})
    status = conn.getresponse().status
    conn.close()
    return status


def standings_exact(tournament_id: int) -> bool:
    """The standings the public reads equal the independent recount of the results."""
    results = GameResult.objects.filter(entry__tournament_id=tournament_id).select_related(
        "game", "entry"
    )
    counted = as_lines(standings(ScopeRef.tournament(tournament_id)))
    return bool(counted) and counted == recount(list(results), list(DEFAULT_TIE_BREAKS))


def test_a_table_plays_on_through_a_redis_outage_and_its_follow_up_completes_after(
    crew: Crew,  # noqa: F811
    receiver: Receiver,  # noqa: F811
    redis_server: RedisServer,
    stack: Stack,
) -> None:
    assert not any(k.startswith("API_THROTTLE_") for k in stack.env)  # throttles on
    game = start_game(crew.table, crew.referee)
    moves = the_engines_moves(game)
    _, token = issue_device_token(crew.referee, "scorer", tournament=crew.tournament)
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["game.finished"])
    path = f"/api/games/{game.pk}/moves/"
    half = len(moves) // 2
    for seq, move in enumerate(moves[:half], start=1):
        status, body = stack.request("POST", path, {"seq": seq, "move": move}, token)
        assert status == 201, body

    redis_server.stop()
    waits, answers = [], []
    for seq, move in enumerate(moves[half:], start=half + 1):
        started = time.monotonic()
        status, body = stack.request("POST", path, {"seq": seq, "move": move}, token)
        waits.append(time.monotonic() - started)
        answers.append((status, body))
    tournament_page = public_page(stack, f"/tournaments/{crew.tournament.slug}/")
    ready_status, ready = stack.get("/healthz/ready")

    # Every move during the outage was accepted, each within the bound, the last ending it...
    assert [status for status, _ in answers] == [201] * len(answers), answers
    assert max(waits) < MOVE_SECONDS, waits
    assert answers[-1][1]["game_over"]
    # ...nothing is lost: the log is exactly what the device sent, and the results are there...
    stored = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert stored == list(range(1, len(moves) + 1))
    assert GameResult.objects.filter(game=game).count() == 4
    # ...the public pages and the health page answer, saying what waits...
    assert tournament_page == 200
    assert ready_status == 200 and ready["status"] == "degraded", ready
    assert ready["cache"]["state"].startswith("down")
    # ...and the follow-up work waits in the outbox, not lost.
    waiting = set(OutboxMessage.objects.values_list("task", flat=True))
    assert {"scoring.update_standings", "scoring.deliver_webhook"} <= waiting

    redis_server.start()

    wait_until(lambda: standings_exact(crew.tournament.pk), 60, "the standings to count it")
    wait_until(lambda: len(receiver.received) == 1, 30, "the game.finished webhook")
    wait_until(lambda: not OutboxMessage.objects.exists(), 30, "the outbox to empty")
    wait_until(lambda: stack.get("/healthz/ready")[1]["status"] == "ok", 30, "readiness")
    body = json.loads(receiver.received[0][1])
    assert body["event"] == "game.finished" and body["data"]["game"]["id"] == game.pk
