"""No card still in a hand appears on any public surface while the game is on: the live page,
its polling partial, the live and moves API, the event feed. After the end hands may show."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from games.models import Game
from games.services import submit_move
from tests.factories import GameFactory, streamed

from .conftest import Crew

pytestmark = pytest.mark.django_db

# REFERENCE §1.4 JDF-T16: a later game of a set, with the card exchange.
T16_HANDS = [["3S", "3H", "9S", "9H"], ["KC"], ["JK", "KD"], ["2S", "2H", "5C", "6C"]]
T16_ACTIONS = [
    {"seat": 3, "give": ["2S", "2H"]},
    {"seat": 2, "give": ["JK"]},
    {"seat": 0, "give": ["3S", "3H"]},
    {"seat": 1, "give": ["KC"]},
    {"seat": 3, "play": ["5C"]},
    {"seat": 0, "pass": True},
]
T16_REST = [
    {"seat": 1, "play": ["JK"]},
    {"seat": 2, "pass": True},
    {"seat": 3, "pass": True},
    {"seat": 2, "play": ["KD", "KC"]},
]
# Held after the exchange and 5C: worked out by hand from the record.
HIDDEN = {"9S", "9H", "2S", "2H", "JK", "KD", "KC", "6C", "3S", "3H"}
LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(code: str) -> str:
    if code == "JK":
        return "JK"
    return LABELS[code[1]] + ("10" if code[0] == "T" else code[0])


def surfaces(client: Client, game: Game) -> dict[str, str]:
    table = game.table_id
    with override_settings(LIVE_FEED_SECONDS=0.0):
        feed = client.get(f"/api/tables/{table}/events/")
        feed_text = streamed(feed)
    return {
        "page": client.get(f"/tables/{table}/live/").content.decode(),
        "partial": client.get(f"/tables/{table}/live/", HTTP_HX_REQUEST="true").content.decode(),
        "live_api": client.get(f"/api/tables/{table}/live/").content.decode(),
        "moves_api": client.get(f"/api/games/{game.pk}/moves/").content.decode(),
        "feed": feed_text,
    }


def leaked(text: str, cards: set[str]) -> set[str]:
    found = set()
    for code in cards:
        as_code = re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text)
        if as_code or (code != "JK" and label(code) + "<" in text):
            found.add(code)
    return found


@pytest.fixture
def t16_game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table,
        game_number=2,
        hands=T16_HANDS,
        titles=["daifugo", "fugo", "hinmin", "daihinmin"],
    )
    for seq, action in enumerate(T16_ACTIONS, start=1):
        assert submit_move(game, action, seq, crew.referee).ok
    game.refresh_from_db()
    return game


def test_no_hidden_card_on_any_public_surface_during_play(
    client: Client, crew: Crew, t16_game: Game
) -> None:
    found = {name: leaked(text, HIDDEN) for name, text in surfaces(client, t16_game).items()}

    assert found == {name: set() for name in found}


def test_played_cards_are_public(client: Client, crew: Crew, t16_game: Game) -> None:
    texts = surfaces(client, t16_game)

    assert '"5C"' in texts["live_api"]
    assert "♣5" in texts["page"]


def test_after_the_end_the_hands_may_be_shown(client: Client, crew: Crew, t16_game: Game) -> None:
    for seq, action in enumerate(T16_REST, start=len(T16_ACTIONS) + 1):
        assert submit_move(t16_game, action, seq, crew.referee).ok

    page = client.get(f"/tables/{crew.table.pk}/live/").content.decode()
    moves = client.get(f"/api/games/{t16_game.pk}/moves/").json()["moves"]

    assert "♣6" in page  # seat 4 was left holding 6C 3S 3H
    assert moves[0]["move"] == {"seat": 3, "give": ["2S", "2H"]}
