"""The public JSON of a live table (`/api/tables/<id>/live/`) carries the table's version as
its ETag: a client asking again with `If-None-Match` gets an empty 304, answered without a
database query, until a move changes the table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.live import table_version
from games.models import Game
from games.services import submit_move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def live_url(crew: Crew) -> str:
    return f"/api/tables/{crew.table.pk}/live/"


def test_the_answer_is_tagged_with_the_tables_version(crew: Crew, t17_game: Game) -> None:
    response = Client().get(live_url(crew))

    assert response.status_code == 200
    assert response["ETag"] == f'"{table_version(crew.table.pk)}"'
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["game"]["id"] == t17_game.pk


def test_an_unchanged_table_is_a_304_without_a_query(
    crew: Crew, t17_game: Game, django_assert_num_queries: Any
) -> None:
    first = Client().get(live_url(crew))

    with django_assert_num_queries(0):
        again = Client().get(live_url(crew), headers={"If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_a_move_makes_the_next_ask_a_full_answer(
    crew: Crew, t17_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    first = Client().get(live_url(crew))
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(t17_game, T17_MOVES[0], 1, crew.referee)

    again = Client().get(live_url(crew), headers={"If-None-Match": first["ETag"]})

    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert [m["seq"] for m in again.json()["game"]["recent"]] == [1]


def test_a_table_the_public_may_not_see_is_not_found_and_never_public(
    crew: Crew, t17_game: Game
) -> None:
    crew.table.round.status = "draft"
    crew.table.round.save(update_fields=["status"])
    referee = Client()
    referee.force_login(crew.referee)  # a referee sees their own table in a draft round

    seen = referee.get(live_url(crew))

    assert seen.status_code == 200
    assert seen["Cache-Control"] == "private, no-cache"
    assert Client().get(live_url(crew), headers={"If-None-Match": seen["ETag"]}).status_code == 404
