"""At an open table Kakumei holds no hand and everyone at the table saw the cards of a move the
referee undoes: the live page keeps it in the log struck through, marked 取り消し, with the undo's
reason; the live and moves APIs list it as `withdrawn`; and the trick, the revolution and the
seat's count are as if it had not been played."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.services import request_undo, submit_move
from tests.factories import GameFactory, browser

from .conftest import Crew

pytestmark = pytest.mark.django_db

MOVES = [
    {"seat": 0, "play": ["3D"]},
    {"seat": 1, "pass": True},
    {"seat": 2, "pass": True},
    {"seat": 3, "pass": True},
    {"seat": 0, "play": ["6S", "6H", "6D", "6C"]},
]


@pytest.fixture
def open_game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table,
        game_number=1,
        mode=Game.Mode.OPEN_TABLE,
        hands=[None] * 4,
        counts=[13, 13, 13, 13],
        leader=0,
    )
    for seq, move in enumerate(MOVES, start=1):
        assert submit_move(game, move, seq, crew.referee).ok, move
    request_undo(game, crew.referee, "押し間違い", seq=5)
    game.refresh_from_db()
    return game


def test_the_live_page_strikes_the_withdrawn_move_through(crew: Crew, open_game: Game) -> None:
    page = browser("ja").get(f"/tables/{crew.table.pk}/live/").content.decode()
    events = page[page.index('class="events"') :]
    struck = events[events.index('data-testid="live-withdrawn"') :].split("</li>", 1)[0]

    assert "<del>" in struck and "革命！" in struck and "♠6" in struck
    assert "取り消し" in struck
    assert events.count('data-testid="live-withdrawn"') == 1
    assert "#6 取り消し: 押し間違い" in events
    assert "革命中" not in page  # the revolution was taken back with the move


def test_the_apis_list_the_withdrawn_move_as_withdrawn(
    client: Client, crew: Crew, open_game: Game
) -> None:
    moves = client.get(f"/api/games/{open_game.pk}/moves/").json()["moves"]
    live = client.get(f"/api/tables/{crew.table.pk}/live/").json()["game"]

    assert [(m["seq"], m["withdrawn"]) for m in moves] == [
        (1, False),
        (2, False),
        (3, False),
        (4, False),
        (5, True),
        (6, False),
    ]
    assert (moves[5]["kind"], moves[5]["ref_seq"], moves[5]["reason"]) == ("undo", 5, "押し間違い")
    assert [m["seq"] for m in live["recent"] if m["withdrawn"]] == [5]
    assert live["state"]["revolution"] is False
    assert live["state"]["counts"] == [12, 13, 13, 13]
    assert live["state"]["table"] is None  # seat 1 leads again
