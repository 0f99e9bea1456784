"""Who may run a table through the API is who may run it in the console: its referee, the head
referee, an organiser — a device token no further than its scope; others get 403 (or 404 when
they may not even see the table), anonymous callers 401."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.auth import issue_device_token
from games.models import Game
from tests.factories import SeatFactory, TableFactory, browser
from tournaments.models import Tournament

from .conftest import Crew

pytestmark = pytest.mark.django_db


def device(user: User, **scope: object) -> Client:
    _, raw = issue_device_token(user, "phone", **scope)  # type: ignore[arg-type]
    return Client(HTTP_AUTHORIZATION=f"Token {raw}")


def start(client: Client, table_id: int, mode: str = "quick") -> int:
    response = client.post(
        f"/api/tables/{table_id}/games/", {"mode": mode}, content_type="application/json"
    )
    return response.status_code


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("other_referee", 403),
        ("outsider_organiser", 403),
        ("referee", 201),
        ("head_referee", 201),
        ("organiser", 201),
    ],
)
def test_starting_a_game_is_for_the_tables_officials(crew: Crew, role: str, expected: int) -> None:
    client = browser() if role == "anonymous" else device(getattr(crew, role))

    assert start(client, crew.table.pk) == expected
    assert crew.table.games.count() == (1 if expected == 201 else 0)


def test_a_session_works_as_well_as_a_token(crew: Crew) -> None:
    client = browser()
    client.force_login(crew.referee)

    assert start(client, crew.table.pk) == 201


def test_a_token_scoped_to_table_one_cannot_write_at_table_two(crew: Crew) -> None:
    """The head referee may run every table; their device's token for table 1 may not."""
    table2 = TableFactory(round=crew.table.round, number=2)
    for position in range(1, 5):
        SeatFactory(table=table2, position=position, entry__tournament=crew.tournament)
    scoped = device(crew.head_referee, tournament=crew.tournament, table_number=1)

    assert start(scoped, table2.pk) == 403
    assert start(scoped, crew.table.pk) == 201
    game = services.start_game(table2, crew.head_referee, mode=Game.Mode.QUICK)
    refused = scoped.post(
        f"/api/games/{game.pk}/quick-result/",
        {"finishing_order": [0, 1, 2, 3]},
        content_type="application/json",
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY


def test_a_token_for_another_tournament_cannot_write(crew: Crew) -> None:
    elsewhere = Tournament.objects.create(name="Elsewhere", slug="elsewhere")
    scoped = device(crew.referee, tournament=elsewhere)

    assert start(scoped, crew.table.pk) == 403


def test_a_draft_rounds_table_is_not_found_for_an_outsider(crew: Crew) -> None:
    crew.table.round.status = "draft"
    crew.table.round.save()

    assert start(device(crew.outsider_organiser), crew.table.pk) == 404


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("quick-result/", {"finishing_order": [0, 1, 2, 3]}),
        ("undo/", {"reason": "misclick", "seq": 0, "result_version": 0}),
        ("void/", {"reason": "misdeal", "redeal": True, "version": 0}),
        ("forfeit/", {"seat": 0, "reason": "ill", "order": [1, 2, 3], "version": 0}),
        ("penalties/", {"seat": 0, "kind": "warning", "reason": "slow play"}),
        ("correction-preview/", {"finishing_order": [0, 1, 2, 3]}),
    ],
)
def test_another_tables_referee_is_refused_every_game_write(
    crew: Crew, path: str, body: dict[str, object]
) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    response = device(crew.other_referee).post(
        f"/api/games/{game.pk}/{path}", body, content_type="application/json"
    )
    anonymous = browser().post(
        f"/api/games/{game.pk}/{path}", body, content_type="application/json"
    )

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert anonymous.status_code == 401
    game.refresh_from_db()
    assert (game.status, game.last_seq, game.penalties.count()) == (Game.Status.IN_PLAY, 0, 0)


def test_rulings_are_the_head_referees_not_the_table_referees(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    referee = device(crew.referee)

    void = referee.post(
        f"/api/games/{game.pk}/void/",
        {"reason": "misdeal", "version": game.version},
        content_type="application/json",
    )
    penalty = referee.post(
        f"/api/games/{game.pk}/penalties/",
        {"seat": 1, "kind": "warning", "reason": "slow"},
        content_type="application/json",
    )

    assert (void.status_code, penalty.status_code) == (403, 403)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY
