"""Each table action of the API does what the console and the official's game page do — the same
service, the same refusals — and answers refusals as `{code, message_en, message_ja}` with 400
for a malformed body, 409 for a game or round not in a state for it, 422 for a rule refusal."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Game, Move
from tests.factories import DeviceApi
from tournaments.models import AuditEntry, Penalty, Tournament

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


Api = DeviceApi


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert body["message_en"] and body["message_ja"]


def quick_game(crew: Crew) -> Game:
    return services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)


# --- starting ----------------------------------------------------------------------------------


def test_start_refuses_an_unknown_mode_and_an_open_table_without_a_leader(crew: Crew) -> None:
    api = Api(crew.referee)

    assert_error(api.post(f"tables/{crew.table.pk}/games/", {"mode": "blitz"}), 400, "bad_request")
    open_table = api.post(f"tables/{crew.table.pk}/games/", {"mode": "open_table"})
    assert_error(open_table, 422, "leader_required")
    assert not crew.table.games.exists()

    led = api.post(f"tables/{crew.table.pk}/games/", {"mode": "open_table", "leader": 2})
    assert led.status_code == 201
    assert "hands" not in led.json() and led.json()["mode"] == "open_table"


def test_start_after_the_last_set_is_a_conflict(crew: Crew) -> None:
    crew.tournament.games_per_set = 1
    crew.tournament.sets_per_round = 1
    crew.tournament.save()
    api = Api(crew.referee)
    game = quick_game(crew)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    assert_error(
        api.post(f"tables/{crew.table.pk}/games/", {"mode": "quick"}), 409, "round_complete"
    )
    board = api.get(f"tables/{crew.table.pk}/games/").json()
    assert board["next_game"] is None and board["next_blocker"]["code"] == "round_complete"


# --- quick results -----------------------------------------------------------------------------


def test_a_quick_result_is_validated_by_the_rules(crew: Crew) -> None:
    api = Api(crew.referee)
    game = quick_game(crew)

    assert_error(api.post(f"games/{game.pk}/quick-result/", {}), 400, "bad_request")
    assert_error(
        api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [0, 1]}),
        422,
        "quick_missing_place",
    )
    done = api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [2, 0, 1, 3]})
    assert done.status_code == 201
    assert [r["seat"] for r in done.json()["results"]] == [2, 0, 1, 3]
    assert done.json()["status"] == "finished" and done.json()["provisional"]
    different = api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [0, 1, 2, 3]})
    assert_error(different, 409, "quick_result_conflict")


def test_a_quick_result_on_a_move_by_move_game_is_a_conflict(crew: Crew, t17_game: Game) -> None:
    response = Api(crew.referee).post(
        f"games/{t17_game.pk}/quick-result/", {"finishing_order": [0, 1, 2, 3]}
    )

    assert_error(response, 409, "not_quick")


def test_withdrawing_a_quick_result_reopens_the_game(crew: Crew) -> None:
    api = Api(crew.referee)
    game = quick_game(crew)
    api.post(f"games/{game.pk}/quick-result/", {"finishing_order": [0, 1, 2, 3]})
    url = f"games/{game.pk}/quick-result/withdraw/"

    assert_error(api.post(url, {"reason": " ", "result_version": 1}), 422, "reason_required")
    withdrawn = api.post(url, {"reason": "wrong order", "result_version": 1})

    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "in_play" and withdrawn.json()["results"] == []
    assert game.result_versions.count() == 2  # the recording and its withdrawal


def test_a_confirmed_quick_result_cannot_be_withdrawn(crew: Crew) -> None:
    game = quick_game(crew)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    services.confirm_game(game, crew.head_referee)

    response = Api(crew.referee).post(
        f"games/{game.pk}/quick-result/withdraw/", {"reason": "x", "result_version": 1}
    )

    assert_error(response, 409, "not_withdrawable")


# --- undo --------------------------------------------------------------------------------------


def play(game: Game, user: User, count: int) -> None:
    for seq, move in enumerate(T17_MOVES[:count], start=1):
        assert services.submit_move(game, move, seq, user).ok


def test_undo_takes_back_the_last_move(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 2)
    api = Api(crew.referee)

    assert_error(
        api.post(f"games/{t17_game.pk}/undo/", {"reason": "", "seq": 2}), 422, "reason_required"
    )
    stale = api.post(f"games/{t17_game.pk}/undo/", {"reason": "misclick", "seq": 1})
    assert_error(stale, 409, "seq_conflict")
    assert stale.json()["expected_seq"] == 2
    undone = api.post(f"games/{t17_game.pk}/undo/", {"reason": "misclick", "seq": 2})

    assert undone.status_code == 201
    assert undone.json()["status"] == "applied" and undone.json()["target_seq"] == 2
    assert undone.json()["game"]["next_seq"] == 4
    assert Move.objects.get(game=t17_game, seq=3).kind == Move.Kind.UNDO


def test_undo_waits_for_the_head_referee_where_the_tournament_wants_it(
    crew: Crew, t17_game: Game
) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew.referee, 1)

    pending = Api(crew.referee).post(
        f"games/{t17_game.pk}/undo/", {"reason": "wrong card", "seq": 1}
    )
    assert pending.status_code == 201 and pending.json()["status"] == "pending"
    assert pending.json()["game"]["undo_pending_seq"] == 2

    decision = f"games/{t17_game.pk}/undo/decision/"
    refused = Api(crew.referee).post(decision, {"approve": True, "seq": 2})
    assert_error(refused, 403, "permission_denied")
    decided = Api(crew.head_referee).post(decision, {"approve": True, "seq": 2})
    assert decided.status_code == 200
    assert decided.json()["approved"] is True and decided.json()["target_seq"] == 2
    assert decided.json()["game"]["undo_pending_seq"] is None
    again = Api(crew.head_referee).post(decision, {"approve": False, "seq": 2})
    assert_error(again, 409, "already_decided")


def test_undo_on_a_quick_game_withdraws_its_result_as_the_console_does(crew: Crew) -> None:
    game = quick_game(crew)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    response = Api(crew.referee).post(
        f"games/{game.pk}/undo/", {"reason": "wrong", "seq": 0, "result_version": 1}
    )

    assert response.status_code == 201 and response.json()["status"] == "withdrawn"
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY


# --- rulings -----------------------------------------------------------------------------------


def test_void_with_a_redeal_lets_the_table_play_the_game_again(crew: Crew) -> None:
    game = quick_game(crew)
    head = Api(crew.head_referee)

    seen = {"version": game.version}
    voided = head.post(f"games/{game.pk}/void/", {"reason": "cards seen", "redeal": True} | seen)
    assert voided.status_code == 200
    assert voided.json()["status"] == "void" and voided.json()["redeal"] is True
    again = head.post(f"games/{game.pk}/void/", {"reason": "again"} | seen)
    assert_error(again, 409, "already_void")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_VOIDED, game_id=game.pk).exists()

    board = head.get(f"tables/{crew.table.pk}/games/").json()
    assert board["next_game"] == {
        "set_number": 1,
        "game_number": 1,
        "attempt": 2,
        "seating": [1, 2, 3, 4],
        "seat_change": False,
        "title_reset": False,
    }
    again = head.post(f"tables/{crew.table.pk}/games/", {"mode": "quick"})
    assert again.status_code == 201 and again.json()["attempt"] == 2


def test_a_forfeit_ends_the_game_with_the_leaver_last(crew: Crew) -> None:
    crew.tournament.forfeit_others = Tournament.ForfeitOthers.REFEREE_ORDER
    crew.tournament.save()
    game = quick_game(crew)
    head = Api(crew.head_referee)

    url, seen = f"games/{game.pk}/forfeit/", {"version": game.version}

    assert_error(head.post(url, {"seat": 9, "reason": "ill"} | seen), 400, "bad_request")
    assert_error(head.post(url, {"seat": 1, "reason": ""} | seen), 422, "reason_required")
    done = head.post(url, {"seat": 1, "reason": "ill", "order": [2, 0, 3]} | seen)

    assert done.status_code == 201, done.content
    assert done.json()["forfeit_seat"] == 1
    assert [r["seat"] for r in done.json()["results"]] == [2, 0, 3, 1]
    assert done.json()["results"][-1]["forfeit"] is True


def test_a_correction_preview_shows_before_and_after_and_saves_nothing(crew: Crew) -> None:
    game = quick_game(crew)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    head = Api(crew.head_referee)

    preview = head.post(f"games/{game.pk}/correction-preview/", {"finishing_order": [1, 0, 2, 3]})

    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert body["based_on_version"] == 1 and body["changes_anything"]
    changed = {c["seat"] for c in body["changes"] if c["changed"]}
    assert changed == {0, 1}
    game.refresh_from_db()
    assert game.result_version == 1
    assert_error(
        head.post(
            f"games/{quick_game_in_play(crew)}/correction-preview/",
            {"finishing_order": [0, 1, 2, 3]},
        ),
        409,
        "no_result",
    )


def quick_game_in_play(crew: Crew) -> int:
    return quick_game(crew).pk


# --- penalties ---------------------------------------------------------------------------------


def test_penalties_are_given_listed_and_withdrawn(crew: Crew) -> None:
    game = quick_game(crew)
    head = Api(crew.head_referee)

    assert_error(
        head.post(f"games/{game.pk}/penalties/", {"seat": 0, "kind": "deduction", "reason": "x"}),
        422,
        "penalty_points_invalid",
    )
    given = head.post(
        f"games/{game.pk}/penalties/",
        {"seat": 2, "kind": "deduction", "points": 2, "reason": "marked cards"},
    )
    assert given.status_code == 201, given.content
    assert given.json()["entry_number"] == 3 and given.json()["points"] == 2
    penalty_id = given.json()["id"]
    listed = head.get(f"games/{game.pk}/penalties/").json()
    assert [p["id"] for p in listed] == [penalty_id]

    assert_error(
        head.post(f"penalties/{penalty_id}/withdraw/", {"reason": ""}), 422, "reason_required"
    )
    withdrawn = head.post(f"penalties/{penalty_id}/withdraw/", {"reason": "wrong player"})
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn_at"]
    again = head.post(f"penalties/{penalty_id}/withdraw/", {"reason": "twice"})
    assert_error(again, 409, "already_withdrawn")
    assert Penalty.objects.get(pk=penalty_id).withdrawn_reason == "wrong player"


def test_a_table_referee_cannot_withdraw_a_penalty(crew: Crew) -> None:
    game = quick_game(crew)
    penalty = Api(crew.head_referee).post(
        f"games/{game.pk}/penalties/", {"seat": 0, "kind": "warning", "reason": "slow"}
    )

    refused = Api(crew.referee).post(
        f"penalties/{penalty.json()['id']}/withdraw/", {"reason": "no"}
    )

    assert_error(refused, 403, "permission_denied")


def test_where_undos_need_approval_only_the_head_referee_withdraws(crew: Crew) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    game = quick_game(crew)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    url, body = f"games/{game.pk}/quick-result/withdraw/", {"reason": "x", "result_version": 1}
    refused = Api(crew.referee).post(url, body)
    done = Api(crew.head_referee).post(url, body)

    assert_error(refused, 403, "approval_required")
    assert done.status_code == 200 and done.json()["status"] == "in_play"
