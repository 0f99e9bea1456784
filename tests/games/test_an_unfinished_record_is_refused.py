"""A record that ends before the game does is refused (`record_unfinished`): only finished
games are imported, and nothing of the unfinished one is kept."""

from __future__ import annotations

import pytest

from games.engine.record import replay
from games.imports import import_records
from games.models import Game, Move
from tests.factories import engine_record

from .conftest import Crew

pytestmark = pytest.mark.django_db


def test_a_record_that_stops_mid_game_is_refused(crew: Crew) -> None:
    record = engine_record("stops early", stop_after=20)
    assert not replay(record).finished

    [outcome] = import_records(crew.table, crew.organiser, [record])

    assert (outcome.status, outcome.code, outcome.move_number) == (
        "refused",
        "record_unfinished",
        None,
    )
    assert "対局が終わっていません" in outcome.message_ja
    assert not Game.objects.exists() and not Move.objects.exists()
