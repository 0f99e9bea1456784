"""Out-of-turn actions (`respond: true`) through submit_move and the device API: a ♥3 answering
a lone joker and an イッツー declared by a seat not in turn (gekijo, REFERENCE §2.2 B2)."""

from __future__ import annotations

import pytest
from django.test import Client

from games import state as game_state
from games.auth import issue_device_token
from games.models import Game, Move
from games.services import submit_move
from tests.factories import GameFactory

from .conftest import Crew

pytestmark = pytest.mark.django_db

# GEKIJO-T03: seat 2 passed, then seat 0 leads a lone joker; seat 2 answers with ♥3.
JOKER_HANDS = [["4S", "JK", "6S"], ["5S", "9D"], ["3H", "4D", "7D"], ["6D", "8D"]]
TO_THE_JOKER = [
    {"seat": 0, "play": ["4S"]},
    {"seat": 1, "play": ["5S"]},
    {"seat": 2, "pass": True},
    {"seat": 3, "play": ["6D"]},
    {"seat": 0, "play": ["JK"]},
]
ANSWER = {"seat": 2, "play": ["3H"], "respond": True}

STRAIGHT = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2S"]
ITSU_HANDS = [["3D", "4D"], STRAIGHT, ["5D"], ["6D"]]  # seat 0 holds ♦3 and leads


@pytest.fixture
def joker_game(crew: Crew) -> Game:
    game: Game = GameFactory(
        table=crew.table, game_number=1, ruleset_id="gekijo", hands=JOKER_HANDS, leader=0
    )
    for seq, move in enumerate(TO_THE_JOKER, start=1):
        assert submit_move(game, move, seq, crew.referee).ok, move
    return game


@pytest.fixture
def itsu_game(crew: Crew) -> Game:
    game: Game = GameFactory(table=crew.table, game_number=1, ruleset_id="gekijo", hands=ITSU_HANDS)
    return game


def test_a_heart_three_answers_the_joker_out_of_turn(crew: Crew, joker_game: Game) -> None:
    outcome = submit_move(joker_game, ANSWER, 6, crew.referee)

    assert (outcome.status, outcome.http_status) == ("accepted", 201), outcome
    assert [e["kind"] for e in outcome.events] == [
        "played",
        "heart_three_return",
        "trick_cleared",
    ]
    # Stored in record format with the flag, so the log replays to the same game.
    assert Move.objects.get(game=joker_game, seq=6).payload == ANSWER
    joker_game.refresh_from_db()
    rebuilt = game_state.rebuild(joker_game, list(joker_game.moves.order_by("seq")))
    assert (rebuilt.turn, rebuilt.table) == (2, None)


def test_the_same_answer_without_respond_is_judged_in_turn(crew: Crew, joker_game: Game) -> None:
    outcome = submit_move(joker_game, {"seat": 2, "play": ["3H"]}, 6, crew.referee)

    assert (outcome.http_status, outcome.code) == (422, "already_passed")


def test_an_identical_resubmission_of_the_answer_is_replayed(crew: Crew, joker_game: Game) -> None:
    first = submit_move(joker_game, ANSWER, 6, crew.referee)
    again = submit_move(joker_game, {"respond": True, "play": ["3H"], "seat": 2}, 6, crew.referee)

    assert again.status == "replayed" and again.events == first.events


@pytest.mark.parametrize("value", ["true", 1, None, ["yes"]])
def test_respond_must_be_a_boolean(crew: Crew, joker_game: Game, value: object) -> None:
    outcome = submit_move(
        joker_game, {"seat": 2, "play": ["3H"], "respond": value}, 6, crew.referee
    )

    assert (outcome.http_status, outcome.code) == (400, "bad_payload")
    assert (outcome.message_en, outcome.message_ja) == (
        "'respond' must be true or false",
        "'respond' は true か false です",
    )
    assert not Move.objects.filter(game=joker_game, seq=6).exists()


def test_a_pass_is_never_out_of_turn(crew: Crew, joker_game: Game) -> None:
    refused = submit_move(joker_game, {"seat": 1, "pass": True, "respond": True}, 6, crew.referee)
    written_false = submit_move(
        joker_game, {"seat": 1, "pass": True, "respond": False}, 6, crew.referee
    )

    assert refused.http_status == 400 and refused.message_ja != refused.message_en
    assert written_false.ok
    assert Move.objects.get(game=joker_game, seq=6).payload == {"seat": 1, "pass": True}


def test_an_instant_win_out_of_turn_through_the_device_api(
    client: Client, crew: Crew, itsu_game: Game
) -> None:
    url = f"/api/games/{itsu_game.pk}/moves/"
    headers = {"HTTP_AUTHORIZATION": f"Token {issue_device_token(crew.referee, 'phone')[1]}"}
    declared = {"seat": 1, "play": STRAIGHT, "declare": "instant_win"}

    def post(seq: int, move: object) -> tuple[int, dict[str, object]]:
        r = client.post(url, {"seq": seq, "move": move}, "application/json", **headers)  # type: ignore[arg-type]
        return r.status_code, r.json()

    in_turn = post(1, declared)
    accepted = post(1, declared | {"respond": True})
    stray = post(2, {"seat": 2, "play": ["5D"], "respond": True})

    assert in_turn[0] == 422 and in_turn[1]["code"] == "not_your_turn"
    assert accepted[0] == 201, accepted
    assert [e["kind"] for e in accepted[1]["events"]] == ["instant_win", "finished"]  # type: ignore[union-attr]
    assert Move.objects.get(game=itsu_game, seq=1).payload == declared | {"respond": True}
    assert stray[0] == 422 and stray[1]["code"] == "response_invalid"
    assert stray[1]["message_en"] != stray[1]["message_ja"]
