"""Every move takes one path: the game row locked, the actor checked on it, the state restored
from the row's snapshot, the move appended. Nothing about a game is kept in a process, so any
worker judges the next move on what the database says."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.services import submit_move
from tests.factories import GameFactory, UserFactory
from tournaments.models import Table

from .conftest import T17_HANDS, T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def queries_of_move(game: Game, seq: int, actor: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        outcome = submit_move(game.pk, T17_MOVES[seq - 1], seq, actor)
    assert outcome.status == "accepted", outcome.error_body()
    return len(captured)


def test_an_official_who_is_not_the_tables_referee_costs_no_more_queries_than_the_referee(
    crew: Crew, t17_game: Game
) -> None:
    second: Game = GameFactory(table=crew.table, game_number=2, hands=T17_HANDS, leader=0)
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    assert submit_move(second, T17_MOVES[0], 1, crew.referee).ok

    by_referee = queries_of_move(t17_game, 2, crew.referee)
    by_head_referee = queries_of_move(second, 2, crew.head_referee)
    by_organiser = queries_of_move(second, 3, crew.organiser)

    assert by_head_referee == by_organiser == by_referee


def test_the_next_move_restores_the_snapshot_instead_of_replaying_the_log(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    second_move = queries_of_move(t17_game, 2, crew.referee)

    assert [queries_of_move(t17_game, seq, crew.referee) for seq in (3, 4, 5)] == [second_move] * 3


def test_a_referee_taken_off_the_table_is_refused_on_the_next_move(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    Table.objects.filter(pk=crew.table.pk).update(referee=UserFactory())

    with pytest.raises(PermissionDenied):
        submit_move(t17_game.pk, T17_MOVES[1], 2, crew.referee)

    t17_game.refresh_from_db()
    assert t17_game.last_seq == 1


def test_a_move_written_by_another_worker_is_the_state_the_next_move_is_judged_on(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    # The same game object, stale here, as another worker's request would leave it.
    stale = Game.objects.get(pk=t17_game.pk)
    assert submit_move(t17_game.pk, T17_MOVES[1], 2, crew.head_referee).ok

    outcome = submit_move(stale, T17_MOVES[2], 3, crew.referee)

    assert outcome.status == "accepted"
    stale.refresh_from_db()
    assert (stale.last_seq, stale.moves.count()) == (3, 3)


def test_an_official_of_another_tournament_is_refused(crew: Crew, t17_game: Game) -> None:
    with pytest.raises(PermissionDenied):
        submit_move(t17_game.pk, T17_MOVES[0], 1, crew.outsider_organiser)

    t17_game.refresh_from_db()
    assert t17_game.last_seq == 0
