"""A mid-round substitution (補欠) pings the table's live feed like a move does: after commit
`table_changed` is sent and the table's version changes, so the live page, the SSE feed and
the referee console refetch and show the substitute's name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from games.live import table_changed, table_version
from games.models import Game
from games.services import submit_move
from tests.factories import streamed
from tournaments import services
from tournaments.models import Seat, Tournament

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def _substitute(crew: Crew, capture: Any) -> list[dict[str, Any]]:
    """Substitute seat 1's entrant; returns the `table_changed` pings heard after commit."""
    Tournament.objects.filter(pk=crew.tournament.pk).update(status=Tournament.Status.RUNNING)
    heard: list[dict[str, Any]] = []

    def listener(**kwargs: Any) -> None:
        heard.append({k: kwargs[k] for k in ("table_id", "game_id", "version")})

    table_changed.connect(listener)
    try:
        original = Seat.objects.get(table=crew.table, position=1).entry
        with capture(execute=True):
            services.substitute_entry(original, crew.organiser, display_name="Kato Hina")
    finally:
        table_changed.disconnect(listener)
    return heard


@override_settings(LIVE_FEED_SECONDS=0.05, LIVE_FEED_POLL_SECONDS=0.01)
def test_a_substitution_mid_game_changes_the_version_and_the_names_shown(
    client: Client, crew: Crew, t17_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    submit_move(t17_game, T17_MOVES[0], 1, crew.referee)
    t17_game.refresh_from_db()
    before = table_version(crew.table.pk)
    assert "Kato Hina" not in client.get(f"/tables/{crew.table.pk}/live/").content.decode()

    heard = _substitute(crew, django_capture_on_commit_callbacks)

    assert heard == [
        {"table_id": crew.table.pk, "game_id": t17_game.pk, "version": t17_game.version}
    ]
    after = table_version(crew.table.pk)
    assert after != before
    feed = streamed(client.get(f"/api/tables/{crew.table.pk}/events/?v={before}"))
    assert f'"version": "{after}"' in feed.split("event: bye")[0]
    assert "Kato Hina" in client.get(f"/tables/{crew.table.pk}/live/").content.decode()
    client.force_login(crew.referee)
    console = client.get(f"/referee/tables/{crew.table.pk}/").content.decode()
    assert "Kato Hina" in console
    assert f'hx-get="/referee/tables/{crew.table.pk}/"' in console  # the seats refresh


def test_a_substitution_before_the_first_game_changes_the_version_too(
    crew: Crew, django_capture_on_commit_callbacks: Any
) -> None:
    assert table_version(crew.table.pk) == "0"

    heard = _substitute(crew, django_capture_on_commit_callbacks)

    assert heard == [{"table_id": crew.table.pk, "game_id": 0, "version": 0}]
    assert table_version(crew.table.pk).startswith("0-s")
