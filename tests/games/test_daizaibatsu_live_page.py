"""The public live page of a 大財閥 table tells the table's state in words: the direction of
play, the 山札's size, the decision under way and the events, in English and in Japanese."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.services import submit_move
from tests.factories import UserFactory, daizaibatsu_game, daizaibatsu_table

pytestmark = pytest.mark.django_db

PILE = ["3H", "3S", "4S", "5H", "5C", "6D"]


@pytest.fixture
def game(db: None) -> Game:
    referee = UserFactory(username="ref-dz")
    table = daizaibatsu_table(referee)
    game: Game = daizaibatsu_game(
        table, [["9H", "2S", "5D"], ["JK", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    # Rule 9: a 9 reverses the direction; rule 15: a 2 names who draws 2.
    for seq, move in enumerate(
        [
            {"seat": 0, "play": ["9H"]},
            {"seat": 3, "pass": True},
            {"seat": 2, "pass": True},
            {"seat": 1, "pass": True},
            {"seat": 0, "play": ["2S"]},
        ],
        start=1,
    ):
        assert submit_move(game, move, seq, referee).ok, move
    return game


def test_the_page_shows_direction_pile_and_the_decision_under_way(
    client: Client, game: Game
) -> None:
    page = client.get(f"/tables/{game.table_id}/live/").content.decode()

    assert "↺ 4 → 3 → 2 → 1" in page
    assert "6 cards" in page
    assert "Seat 1 (Aoki): choose who draws 2" in page  # rule 15: one 2, two cards
    assert "Aoki: direction of play reversed" in page


def test_the_page_speaks_japanese(game: Game) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get(f"/tables/{game.table_id}/live/")

    text = page.content.decode()
    assert "1番席（Aoki）：2枚引く人を選んでください" in text
    assert "山札" in text and "順番" in text
