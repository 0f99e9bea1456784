"""The streaming API: who may read and write a table's moves, with device tokens."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.auth import issue_device_token, revoke_device_token
from games.models import Game, Move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def token_for(user: User | None) -> dict[str, str]:
    if user is None:
        return {}
    _, raw = issue_device_token(user, "phone")
    return {"HTTP_AUTHORIZATION": f"Token {raw}"}


ROLES = ["anonymous", "other_referee", "referee", "head_referee", "organiser", "outsider"]
# role -> (read status, write status)
EXPECTED = {
    "anonymous": (200, 401),
    "other_referee": (200, 403),
    "referee": (200, 201),
    "head_referee": (200, 201),
    "organiser": (200, 201),
    "outsider": (200, 403),
}


def user_of(crew: Crew, role: str) -> User | None:
    return {
        "anonymous": None,
        "other_referee": crew.other_referee,
        "referee": crew.referee,
        "head_referee": crew.head_referee,
        "organiser": crew.organiser,
        "outsider": crew.outsider_organiser,
    }[role]


@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(client: Client, crew: Crew, t17_game: Game, role: str) -> None:
    headers = token_for(user_of(crew, role))
    url = f"/api/games/{t17_game.pk}/moves/"

    read = client.get(url, **headers)  # type: ignore[arg-type]
    write = client.post(
        url,
        {"seq": 1, "move": T17_MOVES[0]},
        content_type="application/json",
        **headers,  # type: ignore[arg-type]
    )

    assert (read.status_code, write.status_code) == EXPECTED[role]
    assert Move.objects.filter(game=t17_game).count() == (1 if write.status_code == 201 else 0)
    if write.status_code == 403:
        assert write.json()["code"] == "permission_denied"


def test_a_revoked_token_is_refused(client: Client, crew: Crew, t17_game: Game) -> None:
    token, raw = issue_device_token(crew.referee, "lost phone")
    revoke_device_token(token)

    response = client.post(
        f"/api/games/{t17_game.pk}/moves/",
        {"seq": 1, "move": T17_MOVES[0]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {raw}",
    )

    assert response.status_code == 401
    assert token.key_hash != raw and raw not in token.key_hash


def test_status_codes_and_error_bodies(client: Client, crew: Crew, t17_game: Game) -> None:
    headers = token_for(crew.referee)
    url = f"/api/games/{t17_game.pk}/moves/"

    def post(seq: int, move: object) -> tuple[int, dict[str, object]]:
        r = client.post(url, {"seq": seq, "move": move}, "application/json", **headers)  # type: ignore[arg-type]
        return r.status_code, r.json()

    accepted = post(1, T17_MOVES[0])
    replayed = post(1, T17_MOVES[0])
    conflict = post(1, T17_MOVES[1])
    illegal = post(2, {"seat": 3, "play": ["6H"]})
    bad = post(2, {"seat": 1})

    assert accepted[0] == 201 and accepted[1]["next_seq"] == 2
    assert replayed[0] == 200 and replayed[1]["status"] == "replayed"
    assert conflict == (
        409,
        {
            "code": "seq_conflict",
            "message_en": "Move number 1 does not fit: the next move is number 2.",
            "message_ja": "手番号 1 は使えません。次の手番号は 2 です。",
            "expected_seq": 2,
            "detail": None,
        },
    )
    assert illegal[0] == 422 and illegal[1]["code"] == "not_your_turn"
    assert set(illegal[1]) == {"code", "message_en", "message_ja", "rule", "detail"}
    assert bad[0] == 400


def test_a_batch_of_json_lines_stops_at_the_first_error(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    lines = [
        {"seq": 1, "move": T17_MOVES[0]},
        {"seq": 2, "move": T17_MOVES[1]},
        {"seq": 3, "move": {"seat": 0, "play": ["9C"]}},  # not seat 0's turn
        {"seq": 3, "move": T17_MOVES[2]},
    ]
    body = "\n".join(json.dumps(line) for line in lines) + "\n"

    response = client.post(
        f"/api/games/{t17_game.pk}/moves/",
        body,
        content_type="application/x-ndjson",
        **token_for(crew.referee),  # type: ignore[arg-type]
    )

    data = response.json()
    assert response.status_code == 207
    assert data["ok"] is False
    assert [(r["line"], r["status"]) for r in data["results"]] == [
        (1, "accepted"),
        (2, "accepted"),
        (3, "rejected"),
    ]
    assert data["results"][2]["error"]["code"] == "not_your_turn"
    assert Move.objects.filter(game=t17_game).count() == 2


def test_moves_since_a_seq(client: Client, crew: Crew, t17_game: Game) -> None:
    headers = token_for(crew.referee)
    for seq, move in enumerate(T17_MOVES[:3], start=1):
        client.post(
            f"/api/games/{t17_game.pk}/moves/",
            {"seq": seq, "move": move},
            "application/json",
            **headers,  # type: ignore[arg-type]
        )

    data = client.get(f"/api/games/{t17_game.pk}/moves/?since=1").json()

    assert [m["seq"] for m in data["moves"]] == [2, 3]
    assert data["moves"][0]["move"] == {"seat": 1, "play": ["2C"]}
    assert data["last_seq"] == 3


def test_a_draft_rounds_games_are_not_public(client: Client, crew: Crew, t17_game: Game) -> None:
    round_ = crew.table.round
    round_.status = round_.Status.DRAFT
    round_.published_at = None
    round_.save()

    assert client.get(f"/api/games/{t17_game.pk}/moves/").status_code == 404
    assert client.get(f"/api/tables/{crew.table.pk}/live/").status_code == 404
