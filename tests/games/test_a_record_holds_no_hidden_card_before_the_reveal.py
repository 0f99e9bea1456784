"""Before a round's seed is revealed a game's record is the public one: no hand (null, with
each seat's dealt count), no blind card, and an exchange give counted, not named — no card a
public viewer cannot see, even for the table's officials. A first game of a set (no exchange)
still replays to the service's placings; once the seed is revealed, the hands are there."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.engine.record import replay
from games.models import Game
from tests.factories import tournament_played_out
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def cards_named(record: dict[str, Any]) -> set[str]:
    """Every card string anywhere in a record but the moves' plays (those are public)."""
    named: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and (len(value) == 2):
            named.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk({k: v for k, v in record.items() if k not in ("moves", "rules", "format")})
    for move in record.get("moves", []):
        walk({k: v for k, v in move.items() if k not in ("play", "as")})
    return named


def lines_of(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200
    return [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]


def test_before_the_reveal_no_record_names_a_card_nobody_has_seen() -> None:
    round_, _, organiser = tournament_played_out(tables=2, games_per_set=2)
    official = Client()
    official.force_login(organiser)  # the table's officials get no more than the public

    for client in (Client(), official):
        lines = lines_of(client.get(f"/api/rounds/{round_.pk}/records.jsonl"))
        assert len(lines) == 4
        for line in lines:
            record = line["record"]
            assert line["game"]["hands"] is False
            assert record["hands"] == [None, None, None, None]
            assert sum(record["counts"]) == sum(
                len(h) for h in Game.objects.get(pk=line["game"]["id"]).hands
            )
            assert "blind" not in record
            assert cards_named(record) == set()
            for give in record.get("exchange", []):
                assert isinstance(give["give"], int)


def test_a_public_first_game_replays_and_a_game_with_an_exchange_says_it_cannot() -> None:
    round_, _, _ = tournament_played_out(tables=1, games_per_set=2)

    first, second = lines_of(Client().get(f"/api/rounds/{round_.pk}/records.jsonl"))

    assert first["game"]["replays"] is True
    replayed = replay(first["record"]).to_dict()
    game = Game.objects.get(pk=first["game"]["id"])
    assert {p["seat"]: p["place"] for p in replayed["placings"]} == dict(
        game.results.values_list("seat", "place")
    )
    assert "leader" in first["record"]  # nobody can tell who held the opening card
    # The exchange's cards stay private, so the engine cannot read the gives.
    assert second["game"]["replays"] is False
    assert second["record"]["titles"] and second["record"]["exchange"]


def test_the_reveal_brings_the_hands() -> None:
    round_, _, organiser = tournament_played_out(tables=1, games_per_set=1)
    game = Game.objects.get(table__round=round_)
    before = Client().get(f"/api/games/{game.pk}/record/").json()
    tournament_services.reveal_round_seed(round_, organiser)  # type: ignore[arg-type]
    after = Client().get(f"/api/games/{game.pk}/record/").json()

    assert before["hands"] == [None] * 4
    assert after["hands"] == game.hands
    assert after["moves"] == before["moves"]
