"""The live table page's poll: an unchanged version is an empty 204 read from the cache, with
no database query; a new version is rendered once and every other viewer gets that render
from the cache; both answers say a proxy may keep them for a second."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.live import table_version
from games.models import Game
from games.services import submit_move
from tests.factories import browser

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db

POLL = {"HTTP_HX_REQUEST": "true"}


def live_url(crew: Crew, version: str = "") -> str:
    return f"/tables/{crew.table.pk}/live/" + (f"?v={version}" if version else "")


def test_an_unchanged_poll_is_a_204_without_a_query(
    client: Client,
    crew: Crew,
    t17_game: Game,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(t17_game, T17_MOVES[0], 1, crew.referee)  # publishes the new version
    shown = client.get(live_url(crew), **POLL)["ETag"].strip('"')

    with django_assert_num_queries(0):
        response = client.get(live_url(crew, shown), **POLL)

    assert response.status_code == 204
    assert response["ETag"] == f'"{shown}"'
    assert "public" in response["Cache-Control"]


def test_a_move_makes_the_next_poll_show_it(
    client: Client, crew: Crew, t17_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    shown = client.get(live_url(crew), **POLL)["ETag"].strip('"')

    with django_capture_on_commit_callbacks(execute=True):
        submit_move(t17_game, T17_MOVES[0], 1, crew.referee)
    response = client.get(live_url(crew, shown), **POLL)

    assert response.status_code == 200
    assert response["ETag"] == f'"{table_version(crew.table.pk)}"' != f'"{shown}"'
    assert f"?v={table_version(crew.table.pk)}" in response.content.decode()  # the next poll


def test_a_new_version_is_rendered_once_for_every_viewer(
    crew: Crew,
    t17_game: Game,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(t17_game, T17_MOVES[0], 1, crew.referee)
    first = browser("en").get(live_url(crew, "old"), **POLL)

    with django_assert_num_queries(0):
        second = browser("en").get(live_url(crew, "old"), **POLL)

    assert second.status_code == first.status_code == 200
    assert second.content == first.content
    japanese = browser("ja").get(live_url(crew, "old"), **POLL).content.decode()
    assert japanese != first.content.decode()  # rendered once per language, not shared


def test_answers_vary_with_the_language_and_htmx(client: Client, crew: Crew) -> None:
    response = client.get(live_url(crew), **POLL)

    vary = {v.strip() for v in response["Vary"].split(",")}
    assert {"HX-Request", "Accept-Language", "Cookie"} <= vary
    assert response["Cache-Control"] == "public, max-age=1"


def test_a_table_the_public_may_not_see_is_never_kept_for_others(
    crew: Crew, t17_game: Game
) -> None:
    round_ = crew.table.round
    round_.status = "draft"
    round_.save(update_fields=["status"])
    referee = browser("en")
    referee.force_login(crew.referee)  # a referee sees their own table in a draft round

    assert referee.get(live_url(crew, "old"), **POLL).status_code == 200
    assert browser("en").get(live_url(crew, "old"), **POLL).status_code == 404


def test_whether_a_table_is_public_is_asked_once_not_at_every_version(
    crew: Crew, t17_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    browser("en").get(live_url(crew, "old"), **POLL)
    with django_capture_on_commit_callbacks(execute=True):
        submit_move(t17_game, T17_MOVES[0], 1, crew.referee)

    with CaptureQueriesContext(connection) as render:
        response = browser("en").get(live_url(crew, "old"), **POLL)

    assert response.status_code == 200
    assert f"?v={table_version(crew.table.pk)}" in response.content.decode()
    assert render.captured_queries  # the new version is rendered from the game …
    assert not [q for q in render.captured_queries if "tournaments_round" in q["sql"]]  # … only
