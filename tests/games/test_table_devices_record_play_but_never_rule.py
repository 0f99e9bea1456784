"""A table's scorer device is issued by an organiser or the head referee, but it records play
with a referee's rights only: rulings (voids, forfeits, corrections, penalties, undo decisions)
need an official's own sign-in, and its undo waits for approval like a referee's."""

from __future__ import annotations

from typing import Any

import pytest

from games.auth import issue_device_token
from games.models import Game, Move
from tournaments.models import Penalty

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


@pytest.fixture
def device(crew: Crew) -> dict[str, Any]:
    _, raw = issue_device_token(
        crew.organiser, "Table 1 tablet", tournament=crew.tournament, table_number=1
    )
    return {"HTTP_AUTHORIZATION": f"Token {raw}", "content_type": "application/json"}


def test_the_device_records_play_at_its_table(
    client: Any, t17_game: Game, device: dict[str, Any]
) -> None:
    response = client.post(
        f"/api/games/{t17_game.pk}/moves/", {"seq": 1, "move": T17_MOVES[0]}, **device
    )

    assert response.status_code == 201


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("void/", {"reason": "misdeal", "redeal": True, "version": 0}),
        ("forfeit/", {"seat": 1, "reason": "left the venue", "version": 0}),
        ("penalties/", {"seat": 0, "kind": "warning", "reason": "slow play"}),
        ("undo/decision/", {"approve": True, "seq": 1}),
    ],
)
def test_the_device_cannot_rule(
    client: Any, t17_game: Game, device: dict[str, Any], path: str, body: dict[str, Any]
) -> None:
    response = client.post(f"/api/games/{t17_game.pk}/{path}", body, **device)

    assert response.status_code == 403
    assert response.json()["code"] == "device_cannot_rule"
    t17_game.refresh_from_db()
    assert t17_game.status == Game.Status.IN_PLAY and t17_game.forfeit_seat is None
    assert not Penalty.objects.exists()


def test_the_devices_undo_waits_for_the_head_referee_where_approval_is_wanted(
    client: Any, crew: Crew, t17_game: Game, device: dict[str, Any]
) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    client.post(f"/api/games/{t17_game.pk}/moves/", {"seq": 1, "move": T17_MOVES[0]}, **device)

    response = client.post(
        f"/api/games/{t17_game.pk}/undo/", {"reason": "wrong card entered", "seq": 1}, **device
    )

    assert response.status_code == 201 and response.json()["status"] == "pending"
    assert Move.objects.get(game=t17_game, kind=Move.Kind.UNDO).approved is None
