"""プンリー (misplay) at the table: the referee records it through the move API or the console;
the cards stay the player's, face up on the public live page and in the console (gekijo@2,
whose switch `misplay` is on: REFERENCE §2.1 rule 13, §2.2 B10; gekijo@1 refuses them)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import state as game_state
from games.auth import issue_device_token
from games.models import Game, Move
from games.services import submit_move
from tests.factories import GameFactory

from .conftest import Crew

pytestmark = pytest.mark.django_db

# Seat = table position - 1: Aoki (seat 0) holds ♦3 and leads; Baba (seat 1) is next.
HANDS = [["3D", "5S", "9H"], ["4S", "7H", "KD"], ["6C", "TC"], ["JC", "QC"]]
MISPLAY = {"seat": 1, "misplay": ["7H", "KD"]}


@pytest.fixture
def game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table,
        game_number=1,
        ruleset_id="gekijo",
        ruleset_version=2,  # gekijo@2: misplays are recorded
        hands=HANDS,
    )
    assert submit_move(game, {"seat": 0, "play": ["3D"]}, 1, crew.referee).ok
    return game


def post_move(client: Client, crew: Crew, game: Game, seq: int, move: object):
    headers = {"HTTP_AUTHORIZATION": f"Token {issue_device_token(crew.referee, 'phone')[1]}"}
    response = client.post(
        f"/api/games/{game.pk}/moves/", {"seq": seq, "move": move}, "application/json", **headers
    )
    return response.status_code, response.json()


def test_a_misplay_through_the_move_api_exposes_the_cards_and_keeps_the_turn(
    client: Client, crew: Crew, game: Game
) -> None:
    status, body = post_move(client, crew, game, 2, {"seat": 1, "misplay": "7h kd"})

    assert status == 201, body
    assert [e["kind"] for e in body["events"]] == ["misplay"]
    assert Move.objects.get(game=game, seq=2).payload == MISPLAY
    game.refresh_from_db()
    state = game_state.rebuild(game, list(game.moves.order_by("seq")))
    assert state.turn == 1 and state.counts[1] == 3
    assert game_state.rebuild(game) == state  # from the snapshot too
    # The exposed cards are played later like any others.
    assert post_move(client, crew, game, 3, {"seat": 1, "play": ["7H"]})[0] == 201


def test_bad_misplays_are_refused_in_both_languages(client: Client, crew: Crew, game: Game) -> None:
    status, body = post_move(client, crew, game, 2, {"seat": 1, "misplay": ["9H"]})

    assert status == 422 and body["code"] == "misplay_invalid"
    assert body["message_en"] != body["message_ja"]
    assert not Move.objects.filter(game=game, seq=2).exists()


def test_a_ruleset_without_misplays_refuses_them(client: Client, crew: Crew) -> None:
    game: Game = GameFactory(table=crew.table, game_number=1, ruleset_id="gekijo", hands=HANDS)

    status, body = post_move(client, crew, game, 1, MISPLAY)

    assert status == 422 and body["code"] == "misplay_not_allowed"
    assert "プンリー" in body["message_ja"]


def test_the_live_page_shows_the_exposed_cards_to_everyone(
    client: Client, client_ja: Client, crew: Crew, game: Game
) -> None:
    assert submit_move(game, MISPLAY, 2, crew.referee).ok

    html = client.get(f"/tables/{crew.table.pk}/live/").content.decode()
    exposed = re.search(r'data-testid="exposed">(.*?)</span></td>', html, re.S)
    assert exposed and "face up (punrī):" in exposed.group(1)
    assert "♥7" in exposed.group(1) and "♦K" in exposed.group(1)
    assert "♠5" not in html  # the rest of the hand stays hidden
    text = re.sub(r"<[^>]+>", " ", html)
    assert "misplay (punrī)" in text

    html_ja = client_ja.get(f"/tables/{crew.table.pk}/live/").content.decode()
    assert "公開中（プンリー）" in html_ja and "プンリー（誤出し）" in html_ja
    assert "face up" not in html_ja


def test_the_console_shows_exposed_cards_and_records_a_misplay(
    client: Client, crew: Crew, game: Game
) -> None:
    client.force_login(crew.referee)
    page = client.get(f"/referee/tables/{crew.table.pk}/").content.decode()
    found = re.search(r'<form[^>]*data-testid="misplay-3".*?</form>', page, re.S)
    assert found and "Record a misplay (punrī)" in found.group(0)

    response = client.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "2", "seat": "2", "cards": ["6C"], "misplay": "1", "action": "misplay"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    row = Move.objects.get(game=game, seq=2)
    assert row.payload == {"seat": 2, "misplay": ["6C"]}
    page = response.content.decode()
    assert re.search(
        r'data-testid="exposed-3">face up \(punrī\): <span class="card[^"]*">♣6<', page
    )
    assert re.search(r'data-testid="turn">Baba', page)  # the turn did not move


def test_a_refused_misplay_shows_in_the_misplay_box(
    client_ja: Client, crew: Crew, game: Game
) -> None:
    client_ja.force_login(crew.referee)
    response = client_ja.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "2", "seat": "2", "cards": ["9H"], "misplay": "1", "action": "misplay"},
        HTTP_HX_REQUEST="true",
    )

    page = response.content.decode()
    box = re.search(r'<details class="misplay".*?</details>', page, re.S)
    assert box and 'data-testid="misplay-error"' in box.group(0)
    assert "misplay_invalid" in box.group(0) and "持っていません" in box.group(0)
    assert "プンリー（誤出し）を記録" in page
