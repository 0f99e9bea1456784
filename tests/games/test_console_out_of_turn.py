"""The referee console shows who may act now, not only the seat in turn: a seat that may answer
a lone joker with ♥3, a seat that may declare イッツー; posting its form records the action."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move
from games.services import submit_move
from tests.factories import GameFactory

from .conftest import Crew

pytestmark = pytest.mark.django_db

# GEKIJO-T03 (seat = table position - 1): Chiba (seat 2) passed; Aoki leads a lone joker.
JOKER_HANDS = [["4S", "JK", "6S"], ["5S", "9D"], ["3H", "4D", "7D"], ["6D", "8D"]]
TO_THE_JOKER = [
    {"seat": 0, "play": ["4S"]},
    {"seat": 1, "play": ["5S"]},
    {"seat": 2, "pass": True},
    {"seat": 3, "play": ["6D"]},
    {"seat": 0, "play": ["JK"]},
]
STRAIGHT = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2S"]


@pytest.fixture
def joker_game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table, game_number=1, ruleset_id="gekijo", hands=JOKER_HANDS, leader=0
    )
    for seq, move in enumerate(TO_THE_JOKER, start=1):
        assert submit_move(game, move, seq, crew.referee).ok, move
    return game


def console(client: Client, crew: Crew) -> str:
    client.force_login(crew.referee)
    return client.get(f"/referee/tables/{crew.table.pk}/").content.decode()


def form(page: str, position: int) -> str:
    found = re.search(rf'<form[^>]*data-testid="respond-{position}".*?</form>', page, re.S)
    assert found, f"no out-of-turn form for seat {position}"
    return found.group(0)


def test_the_console_lists_the_seat_that_may_answer_the_joker(
    client: Client, crew: Crew, joker_game: Game
) -> None:
    page = console(client, crew)

    # Baba (seat 2) is in turn; Chiba (seat 3) holds ♥3 and may answer although she passed;
    # Doi (seat 4) has the window open too but no ♥3, so nothing to offer.
    assert re.search(r'data-testid="out-of-turn">Chiba \(seat 3\): ♥3 return<', page)
    answer = form(page, 3)
    assert 'name="respond" value="1"' in answer and 'name="seat" value="2"' in answer
    assert re.search(r'value="3H" aria-label="3H" checked>', answer)  # the card to answer with
    assert "Out of turn" in answer and "手番外" not in answer
    assert 'data-testid="respond-4"' not in page


def test_posting_the_answer_records_it_out_of_turn(
    client: Client, crew: Crew, joker_game: Game
) -> None:
    client.force_login(crew.referee)

    response = client.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "6", "seat": "2", "cards": ["3H"], "respond": "1", "action": "play"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert 'data-testid="move-error"' not in response.content.decode()
    row = Move.objects.get(game=joker_game, seq=6)
    assert row.payload == {"seat": 2, "play": ["3H"], "respond": True}
    assert [e["kind"] for e in row.events] == ["played", "heart_three_return", "trick_cleared"]
    joker_game.refresh_from_db()
    assert joker_game.last_seq == 6
    page = response.content.decode()
    assert re.search(r'data-testid="turn">Chiba', page)  # the answer took the lead
    assert 'data-testid="out-of-turn"' not in page  # the window closed


def test_a_refused_answer_shows_beside_its_form_in_the_readers_language(
    client: Client, crew: Crew, joker_game: Game
) -> None:
    client.force_login(crew.referee)

    response = client.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "6", "seat": "2", "cards": ["4D"], "respond": "1", "action": "play"},
        HTTP_HX_REQUEST="true",
    )

    answer = form(response.content.decode(), 3)
    assert 'data-testid="move-error"' in answer and "response_invalid" in answer
    assert "only a return card answers a lone joker out of turn" in answer
    assert "ジョーカーに割り込めるのは返しのカードだけです" not in answer
    assert Move.objects.filter(game=joker_game).count() == 5


def test_the_out_of_turn_answer_reads_in_japanese_for_a_japanese_browser(
    client_ja: Client, crew: Crew, joker_game: Game
) -> None:
    page = console(client_ja, crew)

    assert re.search(r'data-testid="out-of-turn">Chiba（3番席）：ハート3返し（♥3）<', page)
    assert "手番外" in form(page, 3) and ">返す<" in form(page, 3)
    assert "Out of turn" not in page and "♥3 return" not in page and ">Answer<" not in page

    refused = client_ja.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "6", "seat": "2", "cards": ["4D"], "respond": "1", "action": "play"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "ジョーカーに割り込めるのは返しのカードだけです" in form(refused, 3)
    assert "only a return card answers a lone joker out of turn" not in refused
    assert Move.objects.filter(game=joker_game).count() == 5


def test_a_seat_holding_itsu_may_declare_it_before_the_first_play(
    client: Client, crew: Crew
) -> None:
    game = GameFactory(
        table=crew.table,
        game_number=1,
        ruleset_id="gekijo",
        hands=[["3D", "4D"], STRAIGHT, ["5D"], ["6D"]],
    )
    page = console(client, crew)
    declare = form(page, 2)

    assert "instant win (itsū)" in declare and 'name="declare" value="instant_win"' in declare
    assert declare.count(" checked>") == 13  # the whole hand is shown
    assert 'data-testid="respond-3"' not in page and 'data-testid="respond-4"' not in page

    client.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {
            "seq": "1",
            "seat": "1",
            "cards": STRAIGHT,
            "respond": "1",
            "declare": "instant_win",
            "action": "play",
        },
        HTTP_HX_REQUEST="true",
    )

    row = Move.objects.get(game=game, seq=1)
    assert row.payload["respond"] is True and row.payload["declare"] == "instant_win"
    assert [e["kind"] for e in row.events] == ["instant_win", "finished"]


def test_at_an_open_table_every_seat_the_window_is_open_for_is_offered(
    client: Client, crew: Crew
) -> None:
    game = GameFactory(
        table=crew.table,
        game_number=1,
        ruleset_id="gekijo",
        mode=Game.Mode.OPEN_TABLE,
        hands=[None] * 4,
        counts=[13, 13, 13, 13],
        leader=0,
    )
    moves = [{"seat": 0, "play": ["3D"]}, {"seat": 1, "play": ["5S"]}, {"seat": 2, "pass": True}]
    moves += [{"seat": 3, "play": ["6D"]}, {"seat": 0, "play": ["JK"]}]
    for seq, move in enumerate(moves, start=1):
        assert submit_move(game, move, seq, crew.referee).ok, move

    page = console(client, crew)

    # The hands are unknown: whoever holds ♥3 may answer, so both seats get a form to type it.
    for position in (3, 4):
        assert 'name="cards_text" placeholder="3H"' in form(page, position)
    assert "イッツー" not in page  # the first play is made: no instant win any more
    client.post(
        f"/referee/tables/{crew.table.pk}/play/",
        {"seq": "6", "seat": "3", "cards_text": "3H", "respond": "1", "action": "play"},
        HTTP_HX_REQUEST="true",
    )
    assert Move.objects.get(game=game, seq=6).payload == {
        "seat": 3,
        "play": ["3H"],
        "respond": True,
    }


def test_at_an_open_table_itsu_is_offered_folded_away_before_the_first_play(
    client: Client, crew: Crew
) -> None:
    GameFactory(
        table=crew.table,
        game_number=1,
        ruleset_id="gekijo",
        mode=Game.Mode.OPEN_TABLE,
        hands=[None] * 4,
        counts=[13, 13, 13, 13],
        leader=0,
    )

    page = console(client, crew)

    folded = re.search(r'<details class="open-instant-wins">.*?</details>', page, re.S)
    assert folded and all(f'data-testid="respond-{p}"' in folded.group(0) for p in (2, 3, 4))
    assert 'data-testid="out-of-turn"' not in page  # only possible, so not listed as who may act
