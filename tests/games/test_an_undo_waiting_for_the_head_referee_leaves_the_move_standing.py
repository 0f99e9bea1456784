"""Where the tournament wants the head referee to approve undos, the move stays on the public
live page (and its revolution stands) while the undo waits, and the log says it waits; it
leaves the page only once approved, and stays if refused — each said in the log."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import decide_undo, request_undo, submit_move
from tests.factories import GameFactory, browser

from .conftest import Crew

pytestmark = pytest.mark.django_db

HANDS = [["3D", "6S", "6H", "6D", "6C", "9C"], ["4H", "KS"], ["5S", "QD"], ["7H", "TD"]]
MOVES = [
    {"seat": 0, "play": ["3D"]},
    {"seat": 1, "pass": True},
    {"seat": 2, "pass": True},
    {"seat": 3, "pass": True},
    {"seat": 0, "play": ["6S", "6H", "6D", "6C"]},
]


@pytest.fixture
def waiting(crew: Crew) -> Game:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    game: Game = GameFactory(table=crew.table, game_number=1, hands=HANDS, leader=0)
    for seq, move in enumerate(MOVES, start=1):
        assert submit_move(game, move, seq, crew.referee).ok, move
    request_undo(game, crew.referee, "♠6を誤入力", seq=5)
    game.refresh_from_db()
    return game


def log(crew: Crew) -> tuple[str, str]:
    page = browser("ja").get(f"/tables/{crew.table.pk}/live/").content.decode()
    return page[page.index('class="events"') :].split("</ol>", 1)[0], page


def test_while_the_undo_waits_the_move_stands(crew: Crew, waiting: Game) -> None:
    events, page = log(crew)

    assert "#5 Aokiさんが♠6 ♥6 ♦6 ♣6を出しました · Aokiさんが革命！" in events
    assert "#6 取り消しを主審に申請<" in events  # no reason at a known deal
    assert "誤入力" not in page and "革命中" in page


def test_once_approved_the_move_is_gone(crew: Crew, waiting: Game) -> None:
    decide_undo(waiting, crew.head_referee, approve=True, seq=6)

    events, page = log(crew)

    assert "♠6" not in events and "革命！" not in page and "革命中" not in page
    assert "#6 取り消し<" in events and "#7 取り消し要求(6)を承認" in events


def test_once_refused_the_move_stays(crew: Crew, waiting: Game) -> None:
    decide_undo(waiting, crew.head_referee, approve=False, seq=6)

    events, page = log(crew)

    assert "#5 Aokiさんが♠6 ♥6 ♦6 ♣6を出しました · Aokiさんが革命！" in events
    assert "#6 取り消しを主審に申請<" in events and "#7 取り消し要求(6)を却下" in events
    assert "革命中" in page
