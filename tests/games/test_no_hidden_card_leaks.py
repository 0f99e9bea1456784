"""No card still in a hand appears on any public surface while the game is on: the live page,
its polling partial, the live and moves API, the event feed. After the end hands may show."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from games.models import Game
from games.services import submit_move
from tests.factories import (
    GameFactory,
    UserFactory,
    daizaibatsu_game,
    daizaibatsu_table,
    streamed,
)

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


# --- 大財閥 (Daizaibatsu): open hands, a draw pile, and cards moved between hidden hands ----

# Seat 1 plays a 6 and opens its hand (rule 6); seat 2 gives JD to seat 3 (rule 7); seat 3
# discards 2C (rule 10), later destroys seat 4's AC (rule 13) and plays a 4, drawing the
# pile's top four (rule 4). Worked out by hand from the rules.
DZ_HANDS = [
    ["6C", "QH", "3D", "8S"],
    ["7D", "JD", "5D", "8C"],
    ["TH", "KH", "2C", "QC", "4S"],
    ["JS", "AC", "4H", "QD"],
]
DZ_PILE = ["9S", "9H", "9C", "5S", "5C", "3H"]
DZ_ACTIONS = [
    {"seat": 0, "play": ["6C"]},
    {"seat": 1, "play": ["7D"]},
    {"seat": 1, "give": ["JD"]},
    {"seat": 2, "play": ["TH"]},
    {"seat": 2, "discard": ["2C"]},
    {"seat": 3, "pass": True},
    {"seat": 0, "pass": True},
    {"seat": 1, "pass": True},
    {"seat": 2, "play": ["KH"]},
    {"seat": 2, "destroy": ["AC"]},
    {"seat": 3, "pass": True},
    {"seat": 0, "pass": True},
    {"seat": 1, "pass": True},
    {"seat": 2, "play": ["4S"]},
]
# Seat 1's open hand after the 6: shown, with its cards.
DZ_OPEN = {"QH", "3D", "8S"}
# Hidden hands (seat 2: 5D 8C; seat 3: QC, JD given, the four drawn; seat 4: JS 4H QD), the
# discarded and destroyed cards and what is left of the pile.
DZ_HIDDEN = {"5D", "8C", "QC", "JD", "9S", "9H", "9C", "5S", "JS", "4H", "QD", "2C", "AC"}
DZ_HIDDEN |= {"5C", "3H"}  # the pile's last two


@pytest.fixture
def dz_game(db: None) -> Game:
    referee = UserFactory(username="ref-dz")
    table = daizaibatsu_table(referee)
    game: Game = daizaibatsu_game(table, DZ_HANDS, DZ_PILE, leader=0)
    for seq, action in enumerate(DZ_ACTIONS, start=1):
        assert submit_move(game, action, seq, referee).ok, action
    game.refresh_from_db()
    return game


def test_no_hidden_daizaibatsu_card_on_any_public_surface(client: Client, dz_game: Game) -> None:
    found = {name: leaked(text, DZ_HIDDEN) for name, text in surfaces(client, dz_game).items()}

    assert found == {name: set() for name in found}


def test_an_opened_hand_is_public_with_its_cards(client: Client, dz_game: Game) -> None:
    texts = surfaces(client, dz_game)

    assert leaked(texts["page"], DZ_OPEN) == DZ_OPEN
    assert leaked(texts["live_api"], DZ_OPEN) == DZ_OPEN
    assert 'data-testid="open-hand"' in texts["page"]
    assert texts["page"].count('data-testid="open-hand"') == 1


def test_the_public_log_tells_the_hidden_moves_by_count(client: Client, dz_game: Game) -> None:
    moves = client.get(f"/api/games/{dz_game.pk}/moves/").json()["moves"]

    assert moves[2]["move"] == {"seat": 1, "give": 1}
    assert moves[4]["move"] == {"seat": 2, "discard": 1}
    assert moves[9]["move"] == {"seat": 2, "destroy": 1}
    assert {"kind": "drew", "seat": 2, "count": 4} in moves[13]["events"]
