"""The 11-back call (イレブンバック, `eleven_back: choice`, gekijo): the console's play form offers
no call / up 上 / down 下 when the game's rules have calls, and sends the call as `choice`."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move
from games.services import submit_move
from tests.factories import GameFactory, browser

from .conftest import T17_HANDS, Crew

pytestmark = pytest.mark.django_db

# GEKIJO-T06 (seat = table position - 1): Baba (seat 1) then plays ♠J and may call.
HANDS = [["5S", "4C", "6C"], ["7S", "JS", "8C"], ["5H", "KH", "9C"], ["9S", "TC", "QC"]]
BEFORE_THE_JACK = [
    {"seat": 0, "play": ["5S"]},
    {"seat": 1, "play": ["7S"]},
    {"seat": 2, "pass": True},
    {"seat": 3, "play": ["9S"]},
    {"seat": 0, "pass": True},
]


@pytest.fixture
def gekijo_game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table, game_number=1, ruleset_id="gekijo", hands=HANDS, leader=0
    )
    return game


def post_play(client: Client, crew: Crew, data: dict[str, object]) -> str:
    client.force_login(crew.referee)
    response = client.post(
        f"/referee/tables/{crew.table.pk}/play/", data | {"action": "play"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_set_of_js_called_down_is_recorded_with_the_call(
    client: Client, crew: Crew, gekijo_game: Game
) -> None:
    for seq, move in enumerate(BEFORE_THE_JACK, start=1):
        assert submit_move(gekijo_game, move, seq, crew.referee).ok

    page = post_play(client, crew, {"seq": "6", "seat": "1", "cards": ["JS"], "choice": "down"})

    row = Move.objects.get(game=gekijo_game, seq=6)
    assert row.payload == {"seat": 1, "play": ["JS"], "choice": "down"}
    assert {"kind": "eleven_back", "seat": 1, "order": "down"} in row.events
    assert 'data-testid="move-error"' not in page


ENGINE_EN = "only a set of Js (not in stairs) may call up or down"
ENGINE_JA = "上・下を宣言できるのは J の組だけです（階段は不可）"


@pytest.mark.parametrize(
    ("language", "shown", "hidden"), [("en", ENGINE_EN, ENGINE_JA), ("ja", ENGINE_JA, ENGINE_EN)]
)
def test_a_call_on_anything_but_js_shows_the_engines_message_in_the_readers_language(
    crew: Crew, gekijo_game: Game, language: str, shown: str, hidden: str
) -> None:
    version = gekijo_game.version
    page = post_play(
        browser(language), crew, {"seq": "1", "seat": "0", "cards": ["5S"], "choice": "up"}
    )

    error = re.search(r'<div class="error" role="alert" data-testid="move-error">.*?</div>', page)
    assert error, page
    assert "choice_invalid" in error.group(0)
    assert shown in error.group(0)
    assert hidden not in page
    gekijo_game.refresh_from_db()
    assert gekijo_game.version == version  # the game is unchanged
    assert not Move.objects.filter(game=gekijo_game).exists()


def test_the_call_is_offered_only_when_the_rules_have_calls(client: Client, crew: Crew) -> None:
    client.force_login(crew.referee)
    url = f"/referee/tables/{crew.table.pk}/"
    GameFactory(table=crew.table, game_number=1, hands=T17_HANDS, leader=0)
    without = client.get(url).content.decode()
    GameFactory(  # the console shows the table's latest game
        table=crew.table,
        game_number=2,
        hands=T17_HANDS,
        leader=0,
        ruleset_overrides={"eleven_back": "choice"},
    )
    with_override = client.get(url).content.decode()

    assert 'data-testid="eleven-back"' not in without
    assert 'data-testid="eleven-back"' in with_override
    for value in ("", "up", "down"):
        assert f'name="choice" value="{value}"' in with_override
