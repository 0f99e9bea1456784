"""The next move is one guarded write; the guard keeps every rule of the locked path."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from games.models import Game
from games.services import submit_move
from tests.factories import GameFactory, UserFactory
from tournaments.models import Table

from .conftest import T17_HANDS, T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def test_the_next_move_of_a_game_this_process_knows_is_a_single_statement(
    crew: Crew, t17_game: Game, django_assert_num_queries: Any
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok

    with django_assert_num_queries(1):
        outcome = submit_move(t17_game.pk, T17_MOVES[1], 2, crew.referee)

    assert outcome.status == "accepted"
    t17_game.refresh_from_db()
    assert (t17_game.last_seq, t17_game.moves.count()) == (2, 2)


def test_a_referee_taken_off_the_table_cannot_use_what_the_process_remembers(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    Table.objects.filter(pk=crew.table.pk).update(referee=UserFactory())

    with pytest.raises(PermissionDenied):
        submit_move(t17_game.pk, T17_MOVES[1], 2, crew.referee)

    t17_game.refresh_from_db()
    assert t17_game.last_seq == 1


def test_a_move_written_elsewhere_makes_the_remembered_state_stale_not_wrong(
    crew: Crew, t17_game: Game
) -> None:
    assert submit_move(t17_game, T17_MOVES[0], 1, crew.referee).ok
    # Another worker wrote meanwhile: all this process cannot know is the newer version.
    Game.objects.filter(pk=t17_game.pk).update(version=99)

    outcome = submit_move(t17_game.pk, T17_MOVES[1], 2, crew.referee)

    assert outcome.status == "accepted"  # judged again after reading the game
    t17_game.refresh_from_db()
    assert t17_game.version == 100 and t17_game.last_seq == 2


def test_the_append_statement_is_prepared_once_per_connection_not_planned_per_move(
    crew: Crew, t17_game: Game
) -> None:
    def prepared_appends() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_prepared_statements"
                " WHERE statement LIKE '%%INSERT INTO games_move%%'"
            )
            return int(cursor.fetchone()[0])

    second: Game = GameFactory(table=crew.table, game_number=2, hands=T17_HANDS, leader=0)
    assert prepared_appends() == 0
    # psycopg prepares a statement on its sixth run on a connection (its default threshold).
    for game in (t17_game, second):
        for seq, move in enumerate(T17_MOVES[:4], start=1):
            assert submit_move(game.pk, move, seq, crew.referee).status == "accepted"

    assert prepared_appends() == 1
