"""The corrections API for a 掼蛋 (Guandan) hand: `POST /api/games/<id>/correction-preview/` and
`POST /api/games/<id>/corrections/` take the hand's finishing order and `aces_only` (as the
games service does), and answer the Guandan refusals with their code, an English and a
Japanese message and the status the API gives such a refusal: 409 when later hands of the match
started from this one (`later_hands_follow`), 400 (corrections) or 422 (preview) for a result
that cannot be (`quick_order_invalid`, `quick_not_in_family`, `aces_only_not_in_rules`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from games.services import record_quick_result
from tests.factories import (
    OfficialFactory,
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
)
from tournaments.models import Official

pytestmark = pytest.mark.django_db


def finished_hand(ruleset_id: str = "guandan-cn") -> tuple[Game, User]:
    """A quick hand won 1-2 by engine team 0, and the head referee."""
    referee = UserFactory(username="gd-api-ref")
    table = console_guandan_table(referee, teams=("Team A", "Team B"), ruleset_id=ruleset_id)
    head = UserFactory(username="gd-api-head")
    OfficialFactory(
        tournament=table.round.stage.tournament, user=head, role=Official.Role.HEAD_REFEREE
    )
    game = console_guandan_hand(table, mode="quick", ruleset_id=ruleset_id)
    record_quick_result(game, referee, [0, 2])
    game.refresh_from_db()
    return game, head


def post(user: User, url: str, body: dict[str, Any]) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(url, body, format="json")


def preview(game: Game, user: User, **body: Any) -> Any:
    return post(user, f"/api/games/{game.pk}/correction-preview/", body)


def save(game: Game, user: User, **body: Any) -> Any:
    defaults = {"reason": "teams swapped", "based_on_version": game.result_version}
    return post(user, f"/api/games/{game.pk}/corrections/", defaults | body)


def assert_refused(answer: Any, code: str, status: int) -> None:
    assert (answer.status_code, answer.data["code"]) == (status, code)
    assert answer.data["message_en"] and answer.data["message_ja"]
    assert answer.data["message_ja"] != answer.data["message_en"]


def test_a_hand_is_previewed_and_corrected_by_its_finishing_order() -> None:
    game, head = finished_hand()

    seen = preview(game, head, finishing_order=[1, 3])
    saved = save(game, head, finishing_order=[1, 3])

    assert seen.status_code == 200 and seen.data["changes_anything"]
    assert saved.status_code == 201
    assert sorted(p["seat"] for p in saved.data["placings"] if p["place"] <= 2) == [1, 3]
    assert {p["team_level"] for p in saved.data["placings"] if p["team"] == 1} == {"5"}


def test_aces_only_is_taken_where_the_rules_have_it() -> None:
    game, head = finished_hand("guandan-pagat")

    seen = preview(game, head, finishing_order=[1, 3], aces_only=True)
    saved = save(game, head, finishing_order=[1, 3], aces_only=True)

    assert seen.status_code == 200
    assert saved.status_code == 201
    assert all(p["detail"].get("aces_only") for p in saved.data["placings"])


def test_aces_only_under_rules_without_it_is_refused() -> None:
    game, head = finished_hand()

    assert_refused(
        preview(game, head, finishing_order=[1, 3], aces_only=True), "aces_only_not_in_rules", 422
    )
    assert_refused(
        save(game, head, finishing_order=[1, 3], aces_only=True), "aces_only_not_in_rules", 400
    )


def test_a_finishing_order_that_cannot_be_is_refused() -> None:
    game, head = finished_hand()

    assert_refused(preview(game, head, finishing_order=[1, 1]), "quick_duplicate_place", 422)
    assert_refused(save(game, head, finishing_order=[1, 1]), "quick_duplicate_place", 400)
    assert_refused(save(game, head, finishing_order=[1, 3], fouls=[0]), "quick_not_in_family", 400)
    game.refresh_from_db()
    assert game.result_version == 1


def test_a_hand_with_later_hands_is_a_conflict() -> None:
    game, head = finished_hand()
    console_guandan_hand(game.table, mode="quick", game_number=2)

    assert_refused(preview(game, head, finishing_order=[1, 3]), "later_hands_follow", 409)
    assert_refused(save(game, head, finishing_order=[1, 3]), "later_hands_follow", 409)
