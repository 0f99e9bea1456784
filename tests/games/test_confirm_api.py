"""`POST /api/games/<id>/confirm/`: an official with an empty body, a player with seat and PIN;
device tokens held to their scope; errors as {code, message_en, message_ja}."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.auth import issue_device_token
from games.models import Game
from tests.factories import browser
from tests.games.conftest import Crew
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def finished(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    return game


def post(client: Client, game: Game, body: object = None, **headers: str):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/games/{game.pk}/confirm/", body or {}, content_type="application/json", **headers
    )


def test_an_official_confirms_with_an_empty_body(crew: Crew) -> None:
    game = finished(crew)
    client = browser()
    client.force_login(crew.head_referee)
    response = post(client, game)
    assert response.status_code == 200
    assert response.json()["status"] == "confirmed"
    assert response.json()["confirmed_by"] == "head-endo"
    assert response.json()["confirmed_by_seat"] is None
    again = post(client, game)
    assert again.status_code == 409 and again.json()["code"] == "not_finished"


def test_the_recorder_cannot_confirm_with_an_empty_body(crew: Crew) -> None:
    game = finished(crew)
    client = browser()
    client.force_login(crew.referee)
    response = post(client, game)
    assert response.status_code == 403
    assert set(response.json()) == {"code", "message_en", "message_ja", "detail"}


def test_a_player_confirms_with_seat_and_pin_on_a_scoped_device(crew: Crew) -> None:
    game = finished(crew)
    token, raw = issue_device_token(crew.referee, "table 1 phone")
    token.tournament = crew.tournament
    token.table_number = crew.table.number
    token.save()
    pin = Table.objects.get(pk=crew.table.pk).confirm_pin
    wrong = post(browser(), game, {"seat": 3, "pin": "000000" if pin != "000000" else "111111"},
                 HTTP_AUTHORIZATION=f"Token {raw}")  # fmt: skip
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_pin"
    response = post(browser(), game, {"seat": 3, "pin": pin}, HTTP_AUTHORIZATION=f"Token {raw}")
    assert response.status_code == 200, response.content
    assert response.json()["confirmed_by_seat"] == 3
    assert pin not in response.content.decode()


def test_a_device_scoped_to_another_table_is_refused(crew: Crew) -> None:
    game = finished(crew)
    token, raw = issue_device_token(crew.referee, "other phone")
    token.tournament = crew.tournament
    token.table_number = 9
    token.save()
    pin = Table.objects.get(pk=crew.table.pk).confirm_pin
    response = post(browser(), game, {"seat": 0, "pin": pin}, HTTP_AUTHORIZATION=f"Token {raw}")
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_half_a_player_body_is_a_bad_request(crew: Crew) -> None:
    game = finished(crew)
    client = browser()
    client.force_login(crew.referee)
    assert post(client, game, {"seat": 0}).json()["code"] == "bad_request"
    assert post(client, game, {"seat": 0, "pin": "12ab56"}).status_code == 400


def test_an_outsider_gets_404(crew: Crew) -> None:
    game = finished(crew)
    client = browser()
    client.force_login(crew.outsider_organiser)
    crew.tournament.status = "draft"
    crew.tournament.save()
    assert post(client, game, {"seat": 0, "pin": "123456"}).status_code == 404
    assert post(client, game).status_code in (403, 404)


def test_the_operation_is_in_the_schema(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "games_confirm_create" in schema
