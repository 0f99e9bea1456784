"""A game has a record only once it has ended as it was played: a game in play answers 409
`game_in_play`, a quick result `game_not_replayable` (its moves are not known), a voided one
`game_void`, each with English and Japanese messages; the JSON lines list every game that
ended, a quick one with `record: null` and the reason. A game of a round or tournament the
public cannot see yet is not found."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.factories import play_legal_moves, play_to_the_end, seated_table
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(admin_user: object) -> object:
    return seated_table(admin_user, stage__tournament__status=Tournament.Status.RUNNING)


def refusal(path: str) -> tuple[int, dict[str, str]]:
    response = Client().get(path)
    return response.status_code, response.json()


def test_a_game_in_play_has_no_record_yet(table: object, admin_user: object) -> None:
    game = services.start_game(table, admin_user)  # type: ignore[arg-type]
    play_legal_moves(game, admin_user, 3)

    for path in (f"/api/games/{game.pk}/record/", f"/games/{game.pk}/record.json"):
        status, body = refusal(path)
        assert status == 409
        assert body["code"] == "game_in_play"
        assert body["message_en"] and "進行中" in body["message_ja"]


def test_a_quick_result_and_a_void_game_say_why(table: object, admin_user: object) -> None:
    quick = services.start_game(table, admin_user, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
    services.record_quick_result(quick, admin_user, [0, 1, 2, 3])  # type: ignore[arg-type]
    played = services.start_game(table, admin_user)  # type: ignore[arg-type]
    play_to_the_end(played, admin_user)
    voided = services.start_game(table, admin_user)  # type: ignore[arg-type]
    services.void_game(voided, admin_user, reason="misdeal", redeal=False)  # type: ignore[arg-type]

    assert refusal(f"/api/games/{quick.pk}/record/")[1]["code"] == "game_not_replayable"
    status, body = refusal(f"/api/games/{voided.pk}/record/")
    assert (status, body["code"]) == (409, "game_void")

    response = Client().get(f"/api/rounds/{table.round.pk}/records.jsonl")  # type: ignore[attr-defined]
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    # One line per game that ended with a result; the void one has none.
    assert [line["game"]["id"] for line in lines] == [quick.pk, played.pk]
    assert lines[0]["record"] is None
    assert lines[0]["error"]["code"] == "game_not_replayable"
    assert lines[0]["game"]["replays"] is False
    assert lines[1]["record"]["format"] == "kakumei-record/1"


def test_what_the_public_cannot_see_is_not_found(table: object, admin_user: object) -> None:
    game = services.start_game(table, admin_user)  # type: ignore[arg-type]
    play_to_the_end(game, admin_user)
    round_ = table.round  # type: ignore[attr-defined]
    tournament = round_.stage.tournament
    assert Client().get(f"/api/games/{game.pk}/record/").status_code == 200

    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)
    for path in (
        f"/api/games/{game.pk}/record/",
        f"/games/{game.pk}/record.json",
        f"/api/rounds/{round_.pk}/records.jsonl",
    ):
        assert Client().get(path).status_code == 404, path

    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(f"/api/games/{game.pk}/record/").status_code == 404
    assert Client().get(f"/api/tournaments/{tournament.slug}/records.jsonl").status_code == 404


def test_a_corrected_result_has_no_record(table: object, admin_user: object) -> None:
    game = services.start_game(table, admin_user)  # type: ignore[arg-type]
    play_to_the_end(game, admin_user)
    assert Client().get(f"/api/games/{game.pk}/record/").status_code == 200

    played = list(game.results.order_by("place").values_list("seat", flat=True))
    services.correct_result(
        game,
        admin_user,  # type: ignore[arg-type]
        finishing_order=played[::-1],  # never the order played
        reason="the scorer swapped two players",
        based_on_version=1,
    )

    status, body = refusal(f"/api/games/{game.pk}/record/")
    assert (status, body["code"]) == (409, "game_not_replayable")
    assert "訂正" in body["message_ja"]


def test_the_round_page_links_only_the_games_that_have_a_record(
    table: object, admin_user: object
) -> None:
    quick = services.start_game(table, admin_user, mode=Game.Mode.QUICK)  # type: ignore[arg-type]
    services.record_quick_result(quick, admin_user, [0, 1, 2, 3])  # type: ignore[arg-type]
    played = services.start_game(table, admin_user)  # type: ignore[arg-type]
    play_to_the_end(played, admin_user)
    round_ = table.round  # type: ignore[attr-defined]

    page = Client().get(f"/tournaments/{round_.stage.tournament.slug}/rounds/{round_.pk}/")

    html = page.content.decode()
    assert f"/games/{played.pk}/record.json" in html
    assert f"/games/{quick.pk}/record.json" not in html
    assert f"/api/rounds/{round_.pk}/records.jsonl" in html
