"""The table API runs a Guandan table: its referee starts a hand and records a quick result
(with `aces_only` where the rules know it); a referee who does not run the table can do
neither; the table's next game says when the match is over."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client

from games import services
from games.engine.guandan import legal_moves
from games.models import Game
from games.state import canonical
from tests.factories import OfficialFactory, UserFactory, guandan_table
from tournaments.models import Official, Tournament

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], None]]]]


def signed_in(user: object) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_referee_starts_a_hand_and_records_its_finishing_order(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    referee = UserFactory()
    table = guandan_table(
        referee,
        ruleset_id="guandan-pagat",
        games_per_set=1,
        match_length=Tournament.MatchLength.HANDS,
    )
    device = signed_in(referee)

    def post(url: str, body: dict[str, Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return device.post(url, body, content_type="application/json")

    started = post(f"/api/tables/{table.pk}/games/", {"mode": "quick"})
    assert started.status_code == 201, started.content
    game_id = started.json()["id"]

    recorded = post(
        f"/api/games/{game_id}/quick-result/", {"finishing_order": [3, 0, 1], "aces_only": True}
    )
    assert recorded.status_code == 201, recorded.content
    results = recorded.json()["results"]
    assert [(r["seat"], r["place"], r["team"]) for r in results] == [
        (3, 1, 1),
        (0, 2, 0),
        (1, 3, 1),
        (2, 4, 0),
    ]
    assert results[0]["detail"]["finish"] == "1-3" and results[0]["points"] == 2

    board = device.get(f"/api/tables/{table.pk}/games/").json()
    assert board["next_game"] is None
    assert board["next_blocker"]["code"] == "match_over"
    refused = post(f"/api/tables/{table.pk}/games/", {"mode": "quick"})
    assert refused.status_code == 409 and refused.json()["code"] == "match_over"


def test_a_bad_finishing_order_is_a_422_that_changes_nothing() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    game = services.start_game(table, referee, mode=Game.Mode.QUICK)

    answer = signed_in(referee).post(
        f"/api/games/{game.pk}/quick-result/",
        {"finishing_order": [0, 1]},
        content_type="application/json",
    )

    assert answer.status_code == 422
    assert answer.json()["code"] == "quick_order_invalid"
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY


def test_a_referee_of_another_table_can_neither_start_nor_enter() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    stranger = UserFactory()
    organiser = UserFactory()
    OfficialFactory(tournament=table.round.stage.tournament, user=organiser)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=stranger, role=Official.Role.REFEREE
    )

    with pytest.raises(services.PermissionDenied):
        services.start_game(table, stranger)
    known = services.start_game(table, referee)
    lead = next(iter(legal_moves(services.current_state(known))))  # type: ignore[arg-type]
    with pytest.raises(services.PermissionDenied):
        services.submit_move(known, canonical(known, lead), 1, stranger)
    assert services.submit_move(known, canonical(known, lead), 1, referee).ok
    services.void_game(known, organiser, reason="test of permissions", redeal=False)
    game = services.start_game(table, referee, mode=Game.Mode.QUICK)
    with pytest.raises(services.PermissionDenied):
        services.record_quick_result(game, stranger, [0, 2])
    answer = signed_in(stranger).post(
        f"/api/games/{game.pk}/quick-result/",
        {"finishing_order": [0, 2]},
        content_type="application/json",
    )
    assert answer.status_code in (403, 404)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY and not game.results.exists()
