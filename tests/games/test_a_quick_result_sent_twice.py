"""A referee's phone may send a quick result twice (the first answer was lost on the way back,
or it was queued offline and resent). The same result for a game that already has it is
recognised — 200, the game as it is, nothing written — while a different one is refused with
409 `quick_result_conflict` and changes nothing. A confirmed game refuses any, as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games import services
from games.live import results_changed
from games.models import Game, OutboxMessage, RejectedSubmission
from tests.factories import DeviceApi

from .conftest import Crew

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def results_announced() -> Iterator[list[int]]:
    """The games whose results scoring heard changed (what recomputes the standings)."""
    games: list[int] = []

    def listener(**kwargs: Any) -> None:
        games.append(kwargs["game_id"])

    results_changed.connect(listener)
    yield games
    results_changed.disconnect(listener)


def quick_game(crew: Crew) -> Game:
    return services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)


def written(game: Game) -> tuple[int, int, int, int]:
    """What a write to the game leaves behind: its version, its result versions, its result
    version number and the outbox's messages."""
    game.refresh_from_db()
    return (
        game.version,
        game.result_versions.count(),
        game.result_version,
        OutboxMessage.objects.count(),
    )


def test_the_same_result_sent_twice_is_recorded_once(
    crew: Crew, results_announced: list[int]
) -> None:
    api = DeviceApi(crew.referee)
    game = quick_game(crew)
    result = {"finishing_order": [2, 0, 1, 3], "fouls": [], "miyako_ochi": None}

    first = api.post(f"games/{game.pk}/quick-result/", result)
    after_first = written(game)
    again = api.post(f"games/{game.pk}/quick-result/", result)

    assert first.status_code == 201, first.content
    assert again.status_code == 200, again.content
    assert again.json() == first.json()
    assert written(game) == after_first
    assert game.result_versions.count() == 1
    assert results_announced == [game.pk]  # one standings update, for the first only


def test_a_different_result_after_the_first_is_refused_and_changes_nothing(
    crew: Crew, results_announced: list[int]
) -> None:
    api = DeviceApi(crew.referee)
    game = quick_game(crew)
    first = api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [2, 0, 1, 3]})
    after_first = written(game)

    different = api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [0, 1, 2, 3]})

    assert different.status_code == 409, different.content
    body = different.json()
    assert body["code"] == "quick_result_conflict"
    assert "different result" in body["message_en"] and "訂正" in body["message_ja"]
    assert written(game) == after_first
    board = api.get(f"tables/{crew.table.pk}/games/").json()
    assert [g["results"] for g in board["games"] if g["id"] == game.pk] == [first.json()["results"]]
    assert results_announced == [game.pk]
    # Like every refusal, kept for officials.
    assert RejectedSubmission.objects.filter(game=game, code="quick_result_conflict").exists()


def test_the_same_result_after_confirmation_is_refused_as_before(crew: Crew) -> None:
    api = DeviceApi(crew.referee)
    game = quick_game(crew)
    result = {"finishing_order": [2, 0, 1, 3]}
    assert api.post(f"games/{game.pk}/quick-result/", result).status_code == 201
    services.confirm_game(game, crew.other_referee)
    after_confirmation = written(game)

    again = api.post(f"games/{game.pk}/quick-result/", result)

    assert again.status_code == 409, again.content
    assert again.json()["code"] == "game_over"
    assert written(game) == after_confirmation


def test_the_console_form_sent_twice_shows_no_error_the_second_time(crew: Crew) -> None:
    referee = Client()
    referee.force_login(crew.referee)
    game = quick_game(crew)
    # Seat 2 out first, then 0, then 1; seat 3 left with cards.
    form = {"outcome_2": "clean-1", "outcome_0": "clean-2", "outcome_1": "clean-3"}
    form["outcome_3"] = "clean-4"
    url = f"/referee/tables/{crew.table.pk}/quick/"

    first = referee.post(url, form, **HTMX)
    after_first = written(game)
    again = referee.post(url, form, **HTMX)

    assert first.status_code == again.status_code == 200
    assert 'role="alert"' not in first.content.decode()
    assert 'role="alert"' not in again.content.decode()
    assert written(game) == after_first
    assert [r.seat for r in game.results.order_by("place")] == [2, 0, 1, 3]

    different = referee.post(url, {**form, "outcome_2": "clean-2", "outcome_0": "clean-1"}, **HTMX)

    assert "quick_result_conflict" in different.content.decode()
    assert written(game) == after_first
