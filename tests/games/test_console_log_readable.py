"""The console's log tells each row in words with card symbols ("Seat 2 played ♠3"); a stored
payload is never shown to a referee as a Python dict (`{'seat': 0, 'play': ['3S']}`)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from games.display import log_line
from games.models import Game
from games.services import decide_undo, request_undo, submit_move
from tests.factories import GameFactory

from .conftest import T17_HANDS, T17_MOVES, Crew

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
# A dict or list repr, raw or HTML-escaped: {'seat': …, ['3S'] …
PYTHON_REPR = re.compile(r"\{\s*(?:'|&#x27;)\w+(?:'|&#x27;)\s*:|\[(?:'|&#x27;)")


def log_of(client: Client, crew: Crew) -> str:
    client.force_login(crew.referee)
    page = client.get(f"/referee/tables/{crew.table.pk}/").content.decode()
    found = re.search(r'<details class="log">.*?</details>', page, re.S)
    assert found, "no log on the console"
    assert not PYTHON_REPR.search(page), PYTHON_REPR.search(page)
    return re.sub(r"<[^>]+>", "", found.group(0))  # the words a referee reads


def test_plays_passes_and_gives_read_as_sentences(client: Client, crew: Crew) -> None:
    game = GameFactory(
        table=crew.table,
        game_number=2,
        hands=T16_HANDS,
        titles=["daifugo", "fugo", "hinmin", "daihinmin"],
    )
    for seq, action in enumerate(T16_ACTIONS, start=1):
        assert submit_move(game, action, seq, crew.referee).ok

    text = log_of(client, crew)

    assert "Seat 4 gave ♠2 ♥2 to the exchange" in text
    assert "Seat 3 gave JK to the exchange" in text
    assert "Seat 4 played ♣5" in text
    assert "Seat 1 passed" in text
    assert "give" not in text and "payload" not in text


def test_undos_and_decisions_read_as_sentences(client: Client, crew: Crew) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    game: Game = GameFactory(table=crew.table, game_number=1, hands=T17_HANDS, leader=0)
    submit_move(game, T17_MOVES[0], 1, crew.referee)
    request_undo(game, crew.referee, "misread the card")  # 2: waits for the head referee
    decide_undo(game, crew.head_referee, approve=True)  # 3
    submit_move(game, T17_MOVES[0], 4, crew.referee)
    request_undo(game, crew.referee, "second thoughts")  # 5
    decide_undo(game, crew.head_referee, approve=False)  # 6

    text = log_of(client, crew)

    assert "Undo of move 1 — misread the card" in text
    assert "Undo request 2 approved" in text
    assert "Undo request 5 refused" in text
    assert "Seat 1 played ♦5 · undone" in text  # move 1, taken back
    assert text.count("Seat 1 played ♦5") == 2  # move 4 stands: its undo was refused


@translation.override("en")
def test_out_of_turn_calls_and_joker_readings_are_noted() -> None:
    answer = log_line(6, "action", {"seat": 2, "play": ["3H"], "respond": True})
    call = log_line(7, "action", {"seat": 1, "play": ["JS", "JH"], "choice": "down"})
    stairs = log_line(8, "action", {"seat": 0, "play": ["4D", "5D", "JK"], "as": {"JK": "6D"}})
    itsu = log_line(
        1, "action", {"seat": 3, "play": ["3S", "TS"], "declare": "instant_win", "respond": True}
    )

    assert str(answer) == "Seat 3 played ♥3 · out of turn"
    assert str(call) == "Seat 2 played ♠J ♥J · 11-back call: down"
    assert str(stairs) == "Seat 1 played ♦4 ♦5 JK · joker as ♦6"
    assert str(itsu) == "Seat 4 played ♠3 ♠10 · out of turn · instant win (itsū)"


@translation.override("en")
def test_a_payload_of_an_unexpected_shape_never_shows_as_a_repr() -> None:
    odd = log_line(9, "action", {"seat": "x", "play": {"cards": ["3S"]}, "extra": [1]})

    assert str(odd) == "A seat played"
