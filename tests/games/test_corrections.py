"""A finished game's result is corrected (訂正) as a new version, with a reason, by the head
referee or an organiser — only an organiser after the seed reveal (flagged publicly), nobody
after the round is closed. The preview shows the placings before and after; the old version
stays in the history; the standings follow the corrected result."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from games.models import Game, RejectedSubmission, ResultVersion
from games.services import (
    GameError,
    correct_result,
    preview_correction,
    record_quick_result,
    start_game,
)
from scoring.models import Standing
from scoring.standings import recompute_tournament
from tests.factories import play_round_quickly
from tournaments.models import AuditEntry
from tournaments.services import close_round, reveal_round_seed

from .conftest import Crew

pytestmark = pytest.mark.django_db

# Seats finish in seat order: Aoki 3 pt, Baba 2, Chiba 1, Doi 0 (the default 3-2-1-0 table).
RECORDED = [0, 1, 2, 3]
# The score sheet was misread: Baba finished first, Aoki second.
CORRECTED = [1, 0, 2, 3]


def finished_quick_game(crew: Crew) -> Game:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    record_quick_result(game, crew.referee, RECORDED)
    game.refresh_from_db()
    return game


def placings(game: Game) -> list[tuple[int, int, str, int]]:
    return [(r.seat, r.place, r.detail["title"], r.points) for r in game.results.order_by("place")]


def correct(game: Game, actor: object, **overrides: object) -> ResultVersion:
    arguments: dict[str, object] = {
        "finishing_order": CORRECTED,
        "fouls": (),
        "miyako_ochi": None,
        "reason": "score sheet misread",
        "based_on_version": 1,
    } | overrides
    return correct_result(game, actor, **arguments)  # type: ignore[arg-type]


def revealed_round_game(crew: Crew) -> Game:
    """The table's first game, after every game of the round is played and the seed revealed."""
    round_ = crew.table.round
    play_round_quickly(round_, crew.referee, crew.head_referee)
    reveal_round_seed(round_, crew.organiser)
    game = crew.table.games.get(set_number=1, game_number=1)
    return game


def test_a_correction_is_a_new_version_and_the_old_one_stays(crew: Crew) -> None:
    game = finished_quick_game(crew)

    version = correct(game, crew.head_referee)

    assert (version.number, version.kind, version.reason) == (
        2,
        "correction",
        "score sheet misread",
    )
    game.refresh_from_db()
    assert (game.result_version, game.status) == (2, Game.Status.CONFIRMED)
    assert placings(game) == [
        (1, 1, "daifugo", 3),
        (0, 2, "fugo", 2),
        (2, 3, "hinmin", 1),
        (3, 4, "daihinmin", 0),
    ]
    first = game.result_versions.get(number=1)
    assert first.kind == "recorded"
    assert [(p["seat"], p["place"], p["points"]) for p in first.placings] == [
        (0, 1, 3),
        (1, 2, 2),
        (2, 3, 1),
        (3, 4, 0),
    ]


def test_a_correction_is_audited_with_its_reason_and_both_results(crew: Crew) -> None:
    game = finished_quick_game(crew)

    correct(game, crew.head_referee)

    entry = AuditEntry.objects.get(game=game, action=AuditEntry.Action.RESULT_CORRECTED)
    assert (entry.actor, entry.reason, entry.round_id) == (
        crew.head_referee,
        "score sheet misread",
        crew.table.round_id,
    )
    changes = {
        c["seat"]: (c["before"]["place"], c["after"]["place"]) for c in entry.data["changes"]
    }
    assert changes == {0: (1, 2), 1: (2, 1), 2: (3, 3), 3: (4, 4)}


def test_the_standings_follow_the_corrected_result(crew: Crew) -> None:
    game = finished_quick_game(crew)
    recompute_tournament(crew.tournament.pk)
    baba = crew.table.seats.get(position=2).entry

    def points() -> int:
        standing = Standing.objects.get(scope="tournament", tournament=crew.tournament, entry=baba)
        return standing.points

    assert points() == 2

    correct(game, crew.head_referee)
    recompute_tournament(crew.tournament.pk)

    assert points() == 3


def test_the_preview_shows_before_and_after_and_saves_nothing(crew: Crew) -> None:
    game = finished_quick_game(crew)

    preview = preview_correction(game, crew.head_referee, CORRECTED)

    assert (preview.based_on_version, preview.after_reveal) == (1, False)
    by_seat = {c.seat: c for c in preview.changes}
    assert (by_seat[0].before["place"], by_seat[0].after["place"]) == (1, 2)  # type: ignore[index]
    assert (by_seat[1].before["points"], by_seat[1].after["points"]) == (2, 3)  # type: ignore[index]
    assert [s for s, c in sorted(by_seat.items()) if c.changed] == [0, 1]
    game.refresh_from_db()
    assert (game.result_version, game.results.get(seat=0).place) == (1, 1)
    assert game.result_versions.count() == 1


def test_a_correction_needs_a_reason(crew: Crew) -> None:
    game = finished_quick_game(crew)

    with pytest.raises(GameError) as caught:
        correct(game, crew.head_referee, reason="   ")

    assert caught.value.code == "reason_required"
    assert game.result_versions.count() == 1
    assert RejectedSubmission.objects.filter(game=game, action="correct").exists()


def test_a_plain_referee_cannot_correct(crew: Crew) -> None:
    game = finished_quick_game(crew)

    with pytest.raises(PermissionDenied):
        correct(game, crew.referee)

    game.refresh_from_db()
    assert (game.result_version, placings(game)[0][0]) == (1, 0)


def test_a_stale_preview_is_refused(crew: Crew) -> None:
    game = finished_quick_game(crew)
    correct(game, crew.organiser)  # someone else corrected it meanwhile: version 2

    with pytest.raises(GameError) as caught:
        correct(game, crew.head_referee, finishing_order=[2, 1, 0, 3], based_on_version=1)

    assert caught.value.code == "result_changed"
    game.refresh_from_db()
    assert game.result_version == 2


def test_after_the_reveal_only_an_organiser_corrects_and_the_game_is_flagged(crew: Crew) -> None:
    game = revealed_round_game(crew)

    with pytest.raises(PermissionDenied):
        correct(game, crew.head_referee)
    version = correct(game, crew.organiser)

    game.refresh_from_db()
    assert version.after_reveal is True
    assert game.corrected_after_reveal is True
    assert game.result_versions.get(number=1).after_reveal is False


def test_after_the_round_is_closed_nobody_corrects(crew: Crew) -> None:
    game = revealed_round_game(crew)
    close_round(crew.table.round, crew.organiser)

    for official in (crew.head_referee, crew.organiser):
        with pytest.raises(GameError) as caught:
            correct(game, official)
        assert caught.value.code == "round_closed"
    game.refresh_from_db()
    assert game.result_version == 1


# --- the API --------------------------------------------------------------------------------


def api(user: object) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def test_the_api_lists_versions_to_officials_of_the_table_only(crew: Crew) -> None:
    game = finished_quick_game(crew)
    correct(game, crew.head_referee)
    url = f"/api/games/{game.pk}/versions/"

    answer = api(crew.referee).get(url)

    assert answer.status_code == 200
    body = answer.json()
    assert (body["result_version"], [v["number"] for v in body["versions"]]) == (2, [1, 2])
    assert body["versions"][1] | {"created_at": None} == {
        "number": 2,
        "kind": "correction",
        "reason": "score sheet misread",
        "actor": "head-endo",
        "after_reveal": False,
        "created_at": None,
        "placings": body["versions"][1]["placings"],
    }
    assert [p["seat"] for p in body["versions"][1]["placings"]] == CORRECTED
    assert api(crew.other_referee).get(url).status_code == 403
    assert api(crew.outsider_organiser).get(url).status_code in (403, 404)
    assert APIClient().get(url).status_code in (401, 403)


def test_the_api_corrects_and_answers_refusals_with_codes(crew: Crew) -> None:
    game = finished_quick_game(crew)
    url = f"/api/games/{game.pk}/corrections/"
    body = {"finishing_order": CORRECTED, "reason": "score sheet misread", "based_on_version": 1}

    no_reason = api(crew.head_referee).post(url, body | {"reason": ""}, format="json")
    by_referee = api(crew.referee).post(url, body, format="json")
    saved = api(crew.head_referee).post(url, body, format="json")
    stale = api(crew.organiser).post(url, body | {"finishing_order": [2, 1, 0, 3]}, format="json")

    assert (no_reason.status_code, no_reason.json()["code"]) == (400, "reason_required")
    assert (by_referee.status_code, by_referee.json()["code"]) == (403, "permission_denied")
    assert saved.status_code == 201
    assert (saved.json()["number"], saved.json()["kind"]) == (2, "correction")
    assert (stale.status_code, stale.json()["code"]) == (409, "result_changed")
    assert set(stale.json()) == {"code", "message_en", "message_ja", "detail"}
    game.refresh_from_db()
    assert game.result_version == 2
