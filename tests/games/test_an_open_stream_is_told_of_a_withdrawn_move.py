"""The table's event feed and an undo: a viewer whose stream is open when a referee takes a move
back is told which row to drop (`event: withdrawn`, its seq and no card) just before the new
version; a viewer who connects afterwards, even one reconnecting from the version that showed
the move, is never told of it (the view it refetches has no trace of it). Both with the
embedded cache and with Redis, as the live process runs."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, override_settings

from games.live import table_version
from games.models import Game
from games.services import decide_undo, request_undo, submit_move

from .conftest import T17_MOVES, Crew


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["cache", "redis"])
def channel(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        request.getfixturevalue("shared_redis")
    return str(request.param)


def events(chunks: list[bytes]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for chunk in chunks:
        text = chunk.decode()
        if text.startswith("event: "):
            head, data = text.strip().split("\n", 1)
            out.append((head.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@override_settings(LIVE_FEED_SECONDS=5.0, LIVE_FEED_POLL_SECONDS=0.01)
async def test_a_viewer_connected_before_the_undo_is_told_to_drop_the_move(
    crew: Crew, t17_game: Game, channel: str
) -> None:
    viewer, chunks = await watching(crew)
    shown = await played(chunks, crew, t17_game)

    await sync_to_async(request_undo)(t17_game, crew.referee, "5D entered by mistake", seq=1)
    told = [await anext(chunks), await anext(chunks)]
    now = await sync_to_async(table_version)(crew.table.pk)
    # Reconnecting from the version that showed the move, or opening the feed anew.
    again: Any = await AsyncClient().get(f"/api/tables/{crew.table.pk}/events/?v={shown}")
    again_chunks = [chunk async for chunk in _first(again, 2)]
    fresh: Any = await AsyncClient().get(f"/api/tables/{crew.table.pk}/events/")
    fresh_chunks = [chunk async for chunk in _first(fresh, 2)]

    table = crew.table.pk
    assert events(told) == [
        ("withdrawn", {"table": table, "game": t17_game.pk, "seq": 1, "version": now}),
        ("table", {"table": table, "version": now}),
    ]
    assert events(again_chunks) == [("table", {"table": table, "version": now})]
    assert events(fresh_chunks) == [("table", {"table": table, "version": now})]
    assert not any(b"5D" in c or b"mistake" in c for c in told + again_chunks + fresh_chunks)
    await viewer.streaming_content.aclose()
    await sync_to_async(connections.close_all)()


async def watching(crew: Crew) -> tuple[Any, Any]:
    """A viewer's stream, open on the table as it is, past its `retry` line."""
    shown = await sync_to_async(table_version)(crew.table.pk)
    viewer: Any = await AsyncClient().get(f"/api/tables/{crew.table.pk}/events/?v={shown}")
    chunks = aiter(viewer.streaming_content)
    assert await anext(chunks) == b"retry: 2000\n\n"
    return viewer, chunks


async def played(chunks: Any, crew: Crew, game: Game) -> str:
    """The game's first move, played while the stream waits; returns the version it told."""
    told = asyncio.ensure_future(anext(chunks))  # the stream starts listening
    await sync_to_async(submit_move)(game, T17_MOVES[0], 1, crew.referee)
    version = await sync_to_async(table_version)(crew.table.pk)
    assert events([await told]) == [("table", {"table": crew.table.pk, "version": version})]
    return version


async def _first(response: Any, count: int) -> Any:
    chunks = aiter(response.streaming_content)
    for _ in range(count):
        yield await anext(chunks)
    await response.streaming_content.aclose()


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@override_settings(LIVE_FEED_SECONDS=5.0, LIVE_FEED_POLL_SECONDS=0.01)
async def test_a_move_that_stands_is_announced_with_no_withdrawal(
    crew: Crew, t17_game: Game, channel: str
) -> None:
    viewer, chunks = await watching(crew)
    await played(chunks, crew, t17_game)

    await sync_to_async(submit_move)(t17_game, T17_MOVES[1], 2, crew.referee)
    told = [await anext(chunks)]

    now = await sync_to_async(table_version)(crew.table.pk)
    assert events(told) == [("table", {"table": crew.table.pk, "version": now})]
    await viewer.streaming_content.aclose()
    await sync_to_async(connections.close_all)()


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@override_settings(LIVE_FEED_SECONDS=5.0, LIVE_FEED_POLL_SECONDS=0.01)
async def test_an_undo_waiting_for_the_head_referee_withdraws_the_move_once_approved(
    crew: Crew, t17_game: Game, channel: str
) -> None:
    crew.tournament.undo_requires_approval = True
    await sync_to_async(crew.tournament.save)()
    viewer, chunks = await watching(crew)
    await played(chunks, crew, t17_game)

    await sync_to_async(request_undo)(t17_game, crew.referee, "5D entered by mistake", seq=1)
    asked = [await anext(chunks)]
    waiting = await sync_to_async(table_version)(crew.table.pk)
    await sync_to_async(decide_undo)(t17_game, crew.head_referee, True, seq=2)
    approved = [await anext(chunks), await anext(chunks)]

    now = await sync_to_async(table_version)(crew.table.pk)
    table = crew.table.pk
    assert events(asked) == [("table", {"table": table, "version": waiting})]
    assert events(approved) == [
        ("withdrawn", {"table": table, "game": t17_game.pk, "seq": 1, "version": now}),
        ("table", {"table": table, "version": now}),
    ]
    await viewer.streaming_content.aclose()
    await sync_to_async(connections.close_all)()
