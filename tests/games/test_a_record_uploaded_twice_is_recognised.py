"""The same record uploaded again — even written differently (key order, card spellings, the
ruleset's short name, or wrapped in a download's line) — is recognised: "already imported as
game N", and nothing is written."""

from __future__ import annotations

import json

import pytest

from games.imports import import_records, read_records
from games.models import Game, Move
from tests.factories import engine_record
from tournaments.models import AuditEntry

from .conftest import Crew

pytestmark = pytest.mark.django_db


def spelled_otherwise(record: dict[str, object]) -> dict[str, object]:
    """The same game: rules by the preset's short name, tens as "10", keys in another order."""
    text = json.dumps(record).replace('"T', '"10')
    again: dict[str, object] = json.loads(text)
    again["rules"] = "jdf"
    return dict(reversed(list(again.items())))


def test_the_same_record_again_is_a_duplicate_and_writes_nothing(crew: Crew) -> None:
    record = engine_record("twice")
    [first] = import_records(crew.table, crew.organiser, [record])
    moves = Move.objects.count()

    [again] = import_records(crew.table, crew.organiser, [spelled_otherwise(record)])

    assert again.status == "duplicate"
    assert again.game == first.game
    assert again.to_dict()["game_number"] == 1
    assert Game.objects.count() == 1 and Move.objects.count() == moves
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_IMPORTED).count() == 1


def test_a_downloaded_line_wrapping_the_record_is_the_same_record(crew: Crew) -> None:
    record = engine_record("downloaded")
    import_records(crew.table, crew.organiser, [record])
    line = json.dumps({"game": {"id": 1, "set_number": 1, "game_number": 1}, "record": record})

    [again] = import_records(crew.table, crew.organiser, read_records(line + "\n"))

    assert again.status == "duplicate"


def test_a_batch_of_duplicates_only_imports_nothing(crew: Crew) -> None:
    records = [engine_record("a")]
    import_records(crew.table, crew.organiser, records)

    outcomes = import_records(crew.table, crew.organiser, records * 2)

    assert [o.status for o in outcomes] == ["duplicate", "duplicate"]
    assert Game.objects.count() == 1
