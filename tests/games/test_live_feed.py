"""The table's event feed: a version ping on every change (then clients refetch), bounded in
time, only after the write commits — and served by an async view that keeps no database
connection while it waits."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client, override_settings

from games.live import table_changed, table_version
from games.models import Game
from games.services import submit_move
from tests.factories import streamed

from .conftest import T17_MOVES, Crew


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@override_settings(LIVE_FEED_SECONDS=5.0, LIVE_FEED_POLL_SECONDS=0.01)
async def test_the_feed_pings_when_the_table_changes(crew: Crew, t17_game: Game) -> None:
    before = await sync_to_async(table_version)(crew.table.pk)
    response: Any = await AsyncClient().get(f"/api/tables/{crew.table.pk}/events/?v={before}")
    chunks = aiter(response.streaming_content)

    first = await anext(chunks)
    await sync_to_async(submit_move)(t17_game, T17_MOVES[0], 1, crew.referee)
    second = await anext(chunks)

    assert response["Content-Type"] == "text/event-stream"
    assert first == b"retry: 2000\n\n"
    assert second == (
        b'event: table\ndata: {"table": %d, "version": "%d.1"}\n\n' % (crew.table.pk, t17_game.pk)
    )
    assert b"hands" not in second
    await response.streaming_content.aclose()
    await sync_to_async(connections.close_all)()  # what the calls above opened in their thread


@pytest.mark.django_db
@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_the_feed_ends_with_a_reconnect_hint(client: Client, crew: Crew, t17_game: Game) -> None:
    text = streamed(client.get(f"/api/tables/{crew.table.pk}/events/"))

    assert text.startswith("retry: 2000\n\nevent: table\n")
    assert text.endswith(
        f'event: bye\ndata: {{"reconnect": true, "version": "{t17_game.pk}.0"}}\n\n'
    )


@pytest.mark.django_db
@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_a_table_the_visitor_may_not_see_has_no_feed(client: Client, crew: Crew) -> None:
    crew.table.round.status = "draft"
    crew.table.round.save(update_fields=["status"])

    assert client.get(f"/api/tables/{crew.table.pk}/events/").status_code == 404


@pytest.mark.django_db
def test_listeners_hear_of_a_move_only_after_commit(
    crew: Crew, t17_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[dict[str, Any]] = []

    def listener(**kwargs: Any) -> None:
        heard.append({k: kwargs[k] for k in ("table_id", "game_id", "version")})

    table_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            submit_move(t17_game, T17_MOVES[0], 1, crew.referee)
        assert heard == []
        for callback in callbacks:
            callback()
    finally:
        table_changed.disconnect(listener)

    assert heard == [{"table_id": crew.table.pk, "game_id": t17_game.pk, "version": 1}]


@pytest.mark.django_db
@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_a_crowd_opening_a_public_table_costs_one_query(
    client: Client, crew: Crew, t17_game: Game, django_assert_num_queries: Any
) -> None:
    streamed(client.get(f"/api/tables/{crew.table.pk}/events/"))  # the first visitor asks

    with django_assert_num_queries(0):
        for _ in range(3):
            text = streamed(client.get(f"/api/tables/{crew.table.pk}/events/"))

    assert text.startswith("retry: 2000\n\nevent: table\n")


@pytest.mark.django_db
@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_the_organiser_sees_the_feed_of_a_table_the_public_may_not(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    crew.table.round.status = "draft"
    crew.table.round.save(update_fields=["status"])
    assert client.get(f"/api/tables/{crew.table.pk}/events/").status_code == 404

    client.force_login(crew.organiser)

    assert client.get(f"/api/tables/{crew.table.pk}/events/").status_code == 200
