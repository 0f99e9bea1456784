"""The table's event feed: a version ping on every change (then clients refetch), bounded in
time under WSGI, and only after the write commits."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from games.live import table_changed, table_version
from games.models import Game
from games.services import submit_move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


@override_settings(LIVE_FEED_SECONDS=5.0, LIVE_FEED_POLL_SECONDS=0.01)
def test_the_feed_pings_when_the_table_changes_and_then_closes(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    before = table_version(crew.table.pk)
    response = client.get(f"/api/tables/{crew.table.pk}/events/?v={before}")
    chunks = iter(response.streaming_content)  # type: ignore[attr-defined]

    first = next(chunks)
    submit_move(t17_game, T17_MOVES[0], 1, crew.referee)
    second = next(chunks)

    assert response["Content-Type"] == "text/event-stream"
    assert first == b"retry: 2000\n\n"
    assert second == (
        b'event: table\ndata: {"table": %d, "version": "%d.1"}\n\n' % (crew.table.pk, t17_game.pk)
    )
    assert b"hands" not in second


@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_the_feed_ends_with_a_reconnect_hint(client: Client, crew: Crew, t17_game: Game) -> None:
    response = client.get(f"/api/tables/{crew.table.pk}/events/")

    text = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]

    assert text.startswith("retry: 2000\n\nevent: table\n")
    assert text.endswith(
        f'event: bye\ndata: {{"reconnect": true, "version": "{t17_game.pk}.0"}}\n\n'
    )


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
