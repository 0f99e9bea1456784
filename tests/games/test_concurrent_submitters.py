"""Two devices racing on one game, on PostgreSQL with real commits: the row lock serialises
them, exactly one wins each seq and nothing is lost or duplicated."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.engine import apply, legal_moves
from games.engine.daifugo import move_to_json
from games.models import Game, Move
from games.services import MoveOutcome, start_game, submit_move
from games.state import initial_state
from tests.factories import OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls: Callable[[], MoveOutcome]) -> list[MoveOutcome]:
    """Run the calls at the same moment, each in its own thread with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], MoveOutcome]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # reported by the assertion below
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.fixture
def game() -> Game:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what is tested: PostgreSQL only")
    referee = UserFactory(username="ref-race")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return start_game(table, referee)


def test_two_different_moves_for_one_seq_exactly_one_wins(game: Game) -> None:
    referee = game.table.referee
    opening = next(legal_moves(initial_state(game)))
    assert submit_move(game, move_to_json(opening), 1, referee).ok
    state, _ = apply(initial_state(game), opening)
    first, second = (move_to_json(m) for m in list(legal_moves(state))[:2])  # a play, a pass…

    outcomes = race(
        lambda: submit_move(game, first, 2, referee),
        lambda: submit_move(game, second, 2, referee),
    )

    assert sorted(o.status for o in outcomes) == ["accepted", "conflict"]
    loser = next(o for o in outcomes if o.status == "conflict")
    assert (loser.http_status, loser.expected_seq) == (409, 3)
    assert Move.objects.filter(game=game).count() == 2


def test_a_whole_game_submitted_twice_in_parallel_loses_and_duplicates_nothing(
    game: Game,
) -> None:
    rng = random.Random(6)
    state = initial_state(game)
    moves = []
    while not state.is_over and len(moves) < 60:
        move = rng.choice(list(legal_moves(state)))
        state, _ = apply(state, move)
        moves.append(move_to_json(move))
    referee = game.table.referee

    statuses = []
    for seq, payload in enumerate(moves, start=1):
        outcomes = race(
            lambda p=payload, s=seq: submit_move(game, p, s, referee),
            lambda p=payload, s=seq: submit_move(game, p, s, referee),
        )
        statuses.append(sorted(o.status for o in outcomes))

    assert statuses == [["accepted", "replayed"]] * len(moves)
    rows = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", "payload"))
    assert [seq for seq, _ in rows] == list(range(1, len(moves) + 1))
    assert [payload for _, payload in rows] == moves
    game.refresh_from_db()
    assert game.last_seq == len(moves)
