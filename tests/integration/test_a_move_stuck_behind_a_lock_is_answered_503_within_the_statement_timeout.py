"""A request stuck behind a lock does not hold a web worker until someone notices: the server
cancels its statement after `DB_STATEMENT_TIMEOUT_SECONDS` and the API answers 503
(`database_unavailable`: try again in a moment); the game is unchanged, and the device's
resend of the same move is accepted once the lock is gone.

gunicorn runs as in production with a short statement timeout; the lock is the test's own
`SELECT … FOR UPDATE` on the game's row, held across the request (as a stuck transaction or a
long migration would hold it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import transaction

from games.auth import issue_device_token
from games.models import Game, Move
from tests.conftest import ROOT, Stack
from tests.games.conftest import T17_MOVES, Crew, crew, t17_game  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stack() -> Iterator[Stack]:
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    running = Stack(logs, "lock", {"DB_STATEMENT_TIMEOUT_SECONDS": "0.5"})
    try:
        running.start(worker=False, beat=False)
        yield running
    finally:
        running.stop()


def test_a_move_behind_a_held_lock_is_503_in_about_the_timeout_and_loses_nothing(
    crew: Crew,  # noqa: F811
    t17_game: Game,  # noqa: F811
    stack: Stack,
) -> None:
    _, token = issue_device_token(crew.referee, "scorer", tournament=crew.tournament)
    moves = f"/api/games/{t17_game.pk}/moves/"
    status, body = stack.request("POST", moves, {"seq": 1, "move": T17_MOVES[0]}, token)
    assert status == 201, body

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=t17_game.pk)
        started = time.monotonic()
        status, body = stack.request("POST", moves, {"seq": 2, "move": T17_MOVES[1]}, token)
        took = time.monotonic() - started

    assert status == 503, body
    assert body["code"] == "database_unavailable"
    assert took < 2.0  # the statement timeout (0.5 s), not the lock holder, decided
    assert Move.objects.filter(game=t17_game).count() == 1
    status, body = stack.request("POST", moves, {"seq": 2, "move": T17_MOVES[1]}, token)
    assert status == 201, body
    assert Move.objects.filter(game=t17_game).count() == 2
