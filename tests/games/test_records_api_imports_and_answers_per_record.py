"""POST /api/tables/<id>/records/: an organiser sends one record, a list, or {"records": [...]};
201 when something was imported, with every record's outcome; 200 when all were duplicates;
422 `records_refused` when nothing was imported and a record was refused (with the engine's
code and the move number); 409 when the round takes no game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.factories import engine_record, titles_after
from tournaments.models import Round

from .conftest import Crew

pytestmark = pytest.mark.django_db


def post(crew: Crew, body: object) -> Any:
    client = Client()
    client.force_login(crew.organiser)
    return client.post(
        f"/api/tables/{crew.table.pk}/records/", json.dumps(body), content_type="application/json"
    )


def test_a_batch_imports_the_good_records_and_names_the_bad_one(crew: Crew) -> None:
    first = engine_record("api one")
    bad = engine_record("api two", titles=titles_after(first))
    bad["moves"][0] = {**bad["moves"][0], "seat": (bad["moves"][0]["seat"] + 1) % 4}

    answer = post(crew, {"records": [first, bad]})

    assert answer.status_code == 201
    body = answer.json()
    assert (body["imported"], body["duplicates"], body["refused"]) == (1, 0, 1)
    ok, refused = body["records"]
    game = Game.objects.get()
    assert ok == {
        "record": 1,
        "status": "imported",
        "game": game.pk,
        "table": 1,
        "set_number": 1,
        "game_number": 1,
    }
    assert (refused["status"], refused["section"], refused["move_number"]) == (
        "refused",
        "moves",
        1,
    )
    assert refused["code"] and refused["message_en"] and refused["message_ja"]


def test_the_same_record_again_answers_200_and_writes_nothing(crew: Crew) -> None:
    record = engine_record("api twice")
    assert post(crew, record).status_code == 201

    again = post(crew, [record])

    assert again.status_code == 200
    assert again.json()["records"][0]["status"] == "duplicate"
    assert Game.objects.count() == 1


def test_nothing_imported_is_422_with_the_reasons(crew: Crew) -> None:
    answer = post(crew, engine_record("api unfinished", stop_after=8))

    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "records_refused" and body["message_ja"]
    assert body["records"][0]["code"] == "record_unfinished"


def test_a_round_that_is_not_open_is_409(crew: Crew) -> None:
    Round.objects.filter(pk=crew.table.round_id).update(
        status=Round.Status.DRAFT, published_at=None
    )

    answer = post(crew, engine_record("api draft"))

    assert answer.status_code == 409
    assert answer.json()["code"] == "round_draft"


def test_an_empty_body_is_refused(crew: Crew) -> None:
    answer = post(crew, {"records": []})

    assert (answer.status_code, answer.json()["code"]) == (422, "no_records")
