"""A 大財閥 or 掼蛋 tournament's tables take records too: the round page offers the import on
every table, the import page explains a 掼蛋 hand's `match` and lists a match record's hands
(「第1局〜第2局」) or the hand and move a refusal names (「第2局 4手目」), and the API answers a
match record with every hand's game, or the hand at fault."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.engine.guandan import next_match
from games.engine.record import export_match_record, load_record, replay
from games.models import Game
from tests.factories import (
    OfficialFactory,
    UserFactory,
    browser,
    daizaibatsu_table,
    guandan_engine_record,
    guandan_table,
)
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db


def organiser_of(table: Table) -> Any:
    user = UserFactory()
    OfficialFactory(
        tournament=table.round.stage.tournament, user=user, role=Official.Role.ORGANISER
    )
    return user


def signed_in(user: Any) -> Client:
    client = browser("ja")
    client.force_login(user)
    return client


def import_page(table: Table) -> str:
    slug = table.round.stage.tournament.slug
    return f"/organiser/{slug}/rounds/{table.round_id}/tables/{table.pk}/import/"


def match_record() -> tuple[dict[str, object], dict[str, Any]]:
    """A two-hand match record, and its second hand's record."""
    first = guandan_engine_record("page hand 1")
    second = guandan_engine_record("page hand 2", match=next_match(replay(first).state))
    loaded = [load_record(r) for r in (first, second)]
    return export_match_record((r.initial_state(), r.moves) for r in loaded), second


def test_the_round_page_offers_the_import_on_a_daizaibatsu_table() -> None:
    table = daizaibatsu_table()
    slug = table.round.stage.tournament.slug

    html = signed_in(organiser_of(table)).get(f"/organiser/{slug}/rounds/{table.round_id}/")

    assert f'data-testid="import-records-{table.number}"' in html.content.decode()


def test_the_page_lists_a_match_records_hands() -> None:
    table = guandan_table(None)
    record, _second = match_record()
    client = signed_in(organiser_of(table))
    assert 'data-testid="import-match-help"' in client.get(import_page(table)).content.decode()

    answer = client.post(import_page(table), {"text": json.dumps(record)}, HTTP_HX_REQUEST="true")

    assert answer.status_code == 200
    assert "試合の第1局〜第2局として取り込みました" in answer.content.decode()
    assert Game.objects.filter(table=table).count() == 2


def test_the_page_names_the_hand_and_move_a_refusal_points_at() -> None:
    table = guandan_table(None)
    record, second = match_record()
    moves = [dict(m) for m in second["moves"]]
    moves[3]["seat"] = (moves[3]["seat"] + 1) % 4
    record["games"][1]["moves"] = moves  # type: ignore[index]

    answer = signed_in(organiser_of(table)).post(
        import_page(table), {"text": json.dumps(record)}, HTTP_HX_REQUEST="true"
    )

    assert answer.status_code == 422
    assert "第2局 4手目" in answer.content.decode()


def test_the_api_answers_a_match_record_with_every_hands_game() -> None:
    table = guandan_table(None)
    client = Client()
    client.force_login(organiser_of(table))
    record, _second = match_record()

    answer = client.post(
        f"/api/tables/{table.pk}/records/", json.dumps(record), content_type="application/json"
    )

    assert answer.status_code == 201, answer.json()
    [outcome] = answer.json()["records"]
    hands = list(Game.objects.filter(table=table).order_by("game_number"))
    assert (outcome["game"], outcome["games"]) == (hands[0].pk, [g.pk for g in hands])
