"""The 大財閥 console: the referee sees every seat's hand in a known deal, the table's state and
the decision under way put as a question, and answers it in one or two taps — a seat button
for a 2's target, card toggles and a confirm button for a 7's gift, two buttons for 倍返し."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game, Move
from tests.factories import UserFactory, daizaibatsu_game, daizaibatsu_table
from tournaments.models import Table

pytestmark = pytest.mark.django_db

PILE = ["3H", "3S", "4S", "5H", "5C", "6D", "6H", "7D"]
HANDS = [["7C", "KS", "2S", "5D"], ["JK", "9H", "6C", "3D"], ["8D", "TD", "QS"], ["3C", "AH"]]


@pytest.fixture
def referee() -> User:
    return UserFactory(username="ref-sato")


@pytest.fixture
def table(referee: User) -> Table:
    table = daizaibatsu_table(referee)
    return table


@pytest.fixture
def game(table: Table) -> Game:
    game: Game = daizaibatsu_game(table, HANDS, PILE, leader=0)
    return game


def post(client: Client, table: Table, data: dict[str, object]) -> str:
    response = client.post(f"/referee/tables/{table.pk}/play/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_the_console_shows_hands_state_and_the_piles_next_cards(
    client: Client, referee: User, table: Table, game: Game
) -> None:
    client.force_login(referee)

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "↻ 1 → 2 → 3 → 4" in page
    assert 'data-testid="seat-2"' in page and "♥9" in page  # seat 2's hand, known deal
    assert 'data-testid="pile-top"' in page and "♥3" in page
    assert 'data-testid="turn-form"' in page


def test_a_seven_asks_for_the_gift_and_toggles_answer_it(
    client: Client, referee: User, table: Table, game: Game
) -> None:
    client.force_login(referee)

    page = post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["7C"]})

    assert "Seat 1 (Aoki): choose 1 card to give to Baba" in page
    assert 'data-testid="decision-give-1"' in page
    post(client, table, {"seq": 2, "seat": 0, "action": "give", "cards": ["KS"]})
    assert Move.objects.get(game=game, seq=2).payload == {"seat": 0, "give": ["KS"]}


def test_a_two_asks_who_draws_and_the_target_answers_double_back(
    client: Client, referee: User, table: Table, game: Game
) -> None:
    client.force_login(referee)
    post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["7C"]})
    post(client, table, {"seq": 2, "seat": 0, "action": "give", "cards": ["KS"]})
    post(client, table, {"seq": 3, "seat": 1, "action": "play", "cards": ["9H"]})

    page = post(client, table, {"seq": 4, "seat": 0, "action": "play", "cards": ["2S"]})

    # Rule 15: one 2, so the target draws 2 — the console shows which two.
    assert "Seat 1 (Aoki): choose who draws 2" in page
    assert 'data-testid="target-2"' in page and 'data-testid="target-draws"' in page
    page = post(client, table, {"seq": 5, "seat": 0, "action": "target", "target": 1})
    assert "Seat 2 (Baba): 倍返し (discard a joker) or accept the draw" in page
    post(client, table, {"seq": 6, "seat": 1, "action": "double_back"})
    assert Move.objects.get(game=game, seq=6).payload == {"seat": 1, "choice": "double_back"}


def test_a_refused_gift_is_told_by_the_decision(
    client: Client, referee: User, table: Table, game: Game
) -> None:
    client.force_login(referee)
    post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["7C"]})

    page = post(client, table, {"seq": 2, "seat": 0, "action": "give", "cards": ["KS", "5D"]})

    assert 'data-testid="move-error"' in page and "wrong_count" in page
    assert Move.objects.filter(game=game).count() == 1


def test_the_console_speaks_japanese(referee: User, table: Table, game: Game) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(referee)
    post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["7C"]})

    page = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert "1番席（Aoki）：Babaに渡すカードを1枚選んでください" in page
    assert "山札" in page


def test_an_open_table_records_plays_typed_and_counts_the_cards(
    client: Client, referee: User, table: Table
) -> None:
    client.force_login(referee)
    client.post(
        f"/referee/tables/{table.pk}/start/",
        {"mode": "open_table", "leader": "2"},
        HTTP_HX_REQUEST="true",
    )
    game = Game.objects.get(table=table)

    page = post(client, table, {"seq": 1, "seat": 2, "action": "play", "cards_text": "4S"})

    assert Move.objects.get(game=game, seq=1).payload == {"seat": 2, "play": ["4S"]}
    # Rule 4: a 4 draws 4 — 13 − 1 + 4 cards, the 山札 56 − 4.
    assert '<td class="num">16</td>' in page
    assert "52 cards" in page


def test_a_draw_from_an_unknown_pile_is_named_in_a_text_field(
    client: Client, referee: User, table: Table
) -> None:
    game = daizaibatsu_game(table, [["4S", "9C"], ["TS"], ["QS"], ["4C"]], None, leader=0)
    client.force_login(referee)

    page = post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["4S"]})

    assert "Seat 1 (Aoki) drew 4 cards: name them" in page
    assert 'data-testid="cards-text"' in page
    post(client, table, {"seq": 2, "seat": 0, "action": "drew", "cards_text": "3H 3S KD JK"})
    assert Move.objects.get(game=game, seq=2).payload == {
        "seat": 0,
        "drew": ["3S", "3H", "KD", "JK"],
    }


def test_an_eight_cut_offers_the_others_an_answer_out_of_turn(
    client: Client, referee: User, table: Table
) -> None:
    game = daizaibatsu_game(
        table, [["8S", "9C"], ["3C", "3H", "3D", "5S"], ["QS"], ["4C"]], PILE, leader=0
    )
    client.force_login(referee)

    page = post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["8S"]})

    assert 'data-testid="respond-2"' in page  # F3: the 8-cut window
    post(
        client,
        table,
        {"seq": 2, "seat": 1, "action": "play", "respond": "1", "cards": ["3C", "3H", "3D"]},
    )
    assert Move.objects.get(game=game, seq=2).payload == {
        "seat": 1,
        "play": ["3H", "3D", "3C"],
        "respond": True,
    }


def test_a_queen_asks_every_player_still_in_for_a_gift_at_once(
    client: Client, referee: User, table: Table
) -> None:
    game = daizaibatsu_game(
        table, [["QS", "5D"], ["9H", "6C"], ["8D", "TD"], ["3C", "AH"]], PILE, leader=0
    )
    client.force_login(referee)

    page = post(client, table, {"seq": 1, "seat": 0, "action": "play", "cards": ["QS"]})

    # Rule 12: every player gives n chosen cards to the next, all at once.
    for position in (1, 2, 3, 4):
        assert f'data-testid="decision-give-{position}"' in page
    gifts = {0: "5D", 1: "6C", 2: "TD", 3: "AH"}
    for seq, (seat, card) in enumerate(gifts.items(), start=2):
        post(client, table, {"seq": seq, "seat": seat, "action": "give", "cards": [card]})
    assert Move.objects.filter(game=game).count() == 5
    page = client.get(f"/referee/tables/{table.pk}/").content.decode()
    assert 'data-testid="decision-give' not in page
