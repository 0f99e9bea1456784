"""A broker outage costs the referees nothing and loses nothing.

Everything here is real and runs as in production: gunicorn serving the API, a Celery worker
and beat, PostgreSQL, and a Redis broker of the test's own that the test stops in the middle
of a game and starts again. The move that ends the game is answered at once while the broker
is down; its standings recompute and its webhook wait in the outbox; once the broker is back,
beat's sweep hands them over and the worker counts the result — once — and posts the webhook.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from django.db.models import Sum

from games.auth import issue_device_token
from games.models import Game, GameResult, OutboxMessage
from scoring import webhooks
from scoring.standings import ScopeRef, standings
from tests.conftest import ROOT, RedisServer, Stack, wait_until
from tests.games.conftest import T17_MOVES, Crew, crew, t17_game  # noqa: F401 (fixtures)
from tests.scoring.conftest import Receiver, receiver  # noqa: F401 (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stack(redis_server: RedisServer) -> Iterator[Stack]:
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    running = Stack(
        logs,
        "outage",
        {
            "CELERY_BROKER_URL": redis_server.url,
            "CELERY_RESULT_BACKEND": redis_server.url,
            "CELERY_TASK_ALWAYS_EAGER": "False",
            "OUTBOX_SWEEP_SECONDS": "1",
            "HEARTBEAT_SECONDS": "1",
            "WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "True",  # the receiver listens on 127.0.0.1
        },
    )
    try:
        running.start()
        yield running
    finally:
        running.stop()


def counted_points(tournament_id: int) -> dict[int, int]:
    return {row.entry_id: row.points for row in standings(ScopeRef.tournament(tournament_id))}


def result_points(game: Game) -> dict[int, int]:
    rows = GameResult.objects.filter(game=game).values("entry_id").annotate(total=Sum("points"))
    return {row["entry_id"]: row["total"] for row in rows}


def test_a_game_ended_while_the_broker_is_down_is_counted_once_it_is_back(
    crew: Crew,  # noqa: F811
    t17_game: Game,  # noqa: F811
    receiver: Receiver,  # noqa: F811
    redis_server: RedisServer,
    stack: Stack,
) -> None:
    _, token = issue_device_token(crew.referee, "scorer", tournament=crew.tournament)
    webhooks.create_endpoint(crew.tournament, crew.organiser, receiver.url, ["game.finished"])
    moves = f"/api/games/{t17_game.pk}/moves/"
    for seq, move in enumerate(T17_MOVES[:-1], start=1):
        status, body = stack.request("POST", moves, {"seq": seq, "move": move}, token)
        assert status == 201, body

    redis_server.stop()
    started = time.monotonic()
    status, body = stack.request(
        "POST", moves, {"seq": len(T17_MOVES), "move": T17_MOVES[-1]}, token
    )
    took = time.monotonic() - started

    # The referee's answer does not wait on the broker (it used to take 19 s)...
    assert status == 201 and body["game_over"], body
    assert took < 3.0
    # ...the web stays in service, saying background work waits...
    status, ready = stack.get("/healthz/ready")
    assert (status, ready["status"]) == (200, "degraded")
    assert ready["outbox"]["waiting"] >= 2
    # ...and what must follow is recorded, not lost: the recompute and the webhook wait.
    waiting = set(OutboxMessage.objects.values_list("task", flat=True))
    assert {"scoring.update_standings", "scoring.deliver_webhook"} <= waiting
    assert counted_points(crew.tournament.pk) == {}

    redis_server.start()

    expected = result_points(t17_game)
    wait_until(
        lambda: counted_points(crew.tournament.pk) == expected,
        60,
        "the standings to count the game",
    )
    wait_until(lambda: len(receiver.received) == 1, 30, "the game.finished webhook")
    wait_until(lambda: not OutboxMessage.objects.exists(), 30, "the outbox to empty")
    time.sleep(2)  # a second hand-over would post again or count twice by now
    assert len(receiver.received) == 1
    assert json.loads(receiver.received[0][1])["data"]["game"]["id"] == t17_game.pk
    assert counted_points(crew.tournament.pk) == expected
