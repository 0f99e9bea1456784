"""Commit–reveal covers duplicate deals (docs/duplicate.md): once a duplicate round's seed is
revealed, the public round page derives each table's deal from the group's material and
rotation, and it equals the hands the games were dealt; two tables of one group were dealt the
same hands, one seat further round."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.display import card
from games.models import Game
from tests.factories import OfficialFactory, UserFactory, duplicate_round, play_to_the_end
from tournaments.models import Official, Round
from tournaments.services import reveal_round_seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def revealed() -> Round:
    """An 8-player duplicate round (one group of 2 tables), each table's one game played out
    move by move, confirmed by a head referee, and the seed revealed."""
    round_, organiser = duplicate_round(8)
    assert isinstance(organiser, User)
    head = UserFactory(username="dup-head")
    OfficialFactory(tournament=round_.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE)
    for table in round_.tables.order_by("number"):
        game = games.start_game(table, organiser)
        play_to_the_end(game, organiser)
        games.confirm_game(Game.objects.get(pk=game.pk), head)
    return reveal_round_seed(round_, organiser)


def labels(names: list[str]) -> str:
    return " ".join(card(name)["label"] for name in names)


def verify_page(client: Client, round_: Round, table: int) -> str:
    slug = round_.stage.tournament.slug
    response = client.get(
        f"/tournaments/{slug}/rounds/{round_.pk}/", {"table": table, "set_number": 1, "game": 1}
    )
    assert response.status_code == 200
    return response.content.decode()


def texts(page: str, testid: str) -> list[str]:
    """The text of every element marked `data-testid=testid` (none nested in these pages)."""
    found = re.findall(rf'data-testid="{testid}"[^>]*>(.*?)</', page, re.S)
    return [html.unescape(re.sub(r"\s+", " ", text)).strip() for text in found]


def test_the_verify_page_derives_the_stored_hands_of_every_table(
    revealed: Round, client: Client
) -> None:
    seed = revealed.revealed_seed
    for game in Game.objects.filter(table__round=revealed).select_related("table"):
        page = verify_page(client, revealed, game.table.number)

        assert texts(page, "deal-material") == [f"{seed}/duplicate/1/seats/4/set/1/game/1"]
        assert texts(page, "hand") == [labels(hand) for hand in game.hands]
        assert f"rotation {game.deal_rotation}" in texts(page, "deal-rotation")[0]


def test_two_tables_of_a_group_were_dealt_the_same_hands_one_seat_further(
    revealed: Round,
) -> None:
    first, second = Game.objects.filter(table__round=revealed).order_by("table__number")

    assert (first.deal_rotation, second.deal_rotation) == (0, 1)
    assert sorted(map(tuple, first.hands)) == sorted(map(tuple, second.hands))
    assert [second.hands[(seat + 1) % 4] for seat in range(4)] == first.hands
    assert first.blind == second.blind


def test_the_round_page_marks_the_duplicate_round_and_each_tables_place(
    revealed: Round, client: Client
) -> None:
    page = verify_page(client, revealed, 2)

    assert texts(page, "duplicate-round") == ["Duplicate"]
    assert texts(page, "duplicate-place-1") + texts(page, "duplicate-place-2") == [
        "Group 1 · rotation 0",
        "Group 1 · rotation 1",
    ]
    assert texts(page, "dealt-hand") == ["4", "1", "2", "3"]
