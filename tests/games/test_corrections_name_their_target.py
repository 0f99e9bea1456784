"""Every correcting action names what the official saw — the undo the move (`seq`: the game's
`last_seq`), a decision the pending undo, a withdrawal or correction the result version, a void
or forfeit the game's version — and is refused with 409, changing nothing, when that is stale:
a double tap or a second official on the same page never undoes a second move or rules twice.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from games import services
from games.models import Game, Move, RejectedSubmission, ResultVersion
from games.state import effective_actions
from tests.factories import DeviceApi, browser

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def play(game: Game, user: User, count: int) -> None:
    for seq, move in enumerate(T17_MOVES[:count], start=1):
        assert services.submit_move(game, move, seq, user).ok


def in_force(game: Game) -> list[int]:
    return [r.seq for r in effective_actions(game.moves.order_by("seq"))]


def signed_in(user: User) -> Client:
    client = browser()
    client.force_login(user)
    return client


Api = DeviceApi


def refused(response: Any, code: str) -> dict[str, Any]:
    assert response.status_code == 409, response.content
    body: dict[str, Any] = response.json()
    assert body["code"] == code
    assert body["message_en"] and body["message_ja"]
    return body


# --- undo ------------------------------------------------------------------------------------


def test_a_double_tapped_undo_undoes_one_move(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 3)

    services.request_undo(t17_game, crew.referee, "wrong card", seq=3)
    with pytest.raises(services.GameError) as again:
        services.request_undo(t17_game, crew.referee, "wrong card", seq=3)

    assert again.value.code == "already_undone"
    assert again.value.detail == {"expected_seq": 4}
    assert in_force(t17_game) == [1, 2]
    assert Move.objects.filter(game=t17_game, kind=Move.Kind.UNDO).count() == 1
    kept = RejectedSubmission.objects.get(game=t17_game)
    assert (kept.action, kept.code) == ("undo", "already_undone")


def test_two_officials_undoing_from_the_same_console_undo_one_move(
    crew: Crew, t17_game: Game
) -> None:
    play(t17_game, crew.referee, 2)
    url = reverse("referee:undo", args=[crew.table.pk])
    console = signed_in(crew.referee).get(reverse("referee:table", args=[crew.table.pk]))
    form = re.search(r'<form class="undo".*?</form>', console.content.decode(), re.S)
    assert form is not None and '<input type="hidden" name="seq" value="2">' in form.group()
    posted = {"reason": "misclick", "seq": "2", "result_version": "0"}

    first = signed_in(crew.referee).post(url, posted, headers={"HX-Request": "true"})
    second = signed_in(crew.head_referee).post(url, posted, headers={"HX-Request": "true"})

    assert first.status_code == 200
    assert second.status_code == 409
    html = second.content.decode()
    assert 'data-testid="undo-error"' in html and "already_undone" in html
    assert "Move 2 was already undone" in html
    assert in_force(t17_game) == [1]
    assert RejectedSubmission.objects.filter(code="already_undone", actor=crew.head_referee)


def test_the_console_says_an_undo_was_already_done_in_japanese(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 2)
    client = signed_in(crew.referee)
    url = reverse("referee:undo", args=[crew.table.pk])
    posted = {"reason": "misclick", "seq": "2", "result_version": "0"}
    client.post(url, posted, headers={"HX-Request": "true", "Accept-Language": "ja"})

    again = client.post(url, posted, headers={"HX-Request": "true", "Accept-Language": "ja"})

    assert "手番号 2 はすでに取り消されています" in again.content.decode()
    assert in_force(t17_game) == [1]


def test_an_undo_form_from_an_older_page_is_refused_not_guessed(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 2)
    url = reverse("referee:undo", args=[crew.table.pk])

    answer = signed_in(crew.referee).post(
        url, {"reason": "misclick"}, headers={"HX-Request": "true"}
    )

    assert answer.status_code == 409 and "seq_conflict" in answer.content.decode()
    assert in_force(t17_game) == [1, 2]


def test_an_undo_after_other_moves_is_refused_with_the_seq_now(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 3)

    stale = Api(crew.referee).post(f"games/{t17_game.pk}/undo/", {"reason": "x", "seq": 2})

    assert refused(stale, "seq_conflict")["expected_seq"] == 3
    assert in_force(t17_game) == [1, 2, 3]


def test_an_undo_repeated_through_the_api_undoes_one_move(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew.referee, 2)
    api = Api(crew.referee)
    body = {"reason": "misclick", "seq": 2}

    first = api.post(f"games/{t17_game.pk}/undo/", body)
    second = api.post(f"games/{t17_game.pk}/undo/", body)

    assert first.status_code == 201
    assert refused(second, "already_undone")["expected_seq"] == 3
    assert in_force(t17_game) == [1]


def test_a_repeated_undo_waiting_for_approval_is_not_asked_twice(
    crew: Crew, t17_game: Game
) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew.referee, 2)

    services.request_undo(t17_game, crew.referee, "misclick", seq=2)
    with pytest.raises(services.GameError) as again:
        services.request_undo(t17_game, crew.referee, "misclick", seq=2)

    assert again.value.code == "undo_pending"
    assert Move.objects.filter(game=t17_game, kind=Move.Kind.UNDO).count() == 1


def test_an_undo_decided_twice_is_decided_once(crew: Crew, t17_game: Game) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew.referee, 2)
    services.request_undo(t17_game, crew.referee, "misclick", seq=2)
    decision = reverse("referee:decide", args=[crew.table.pk])
    console = signed_in(crew.head_referee).get(reverse("referee:table", args=[crew.table.pk]))
    assert '<input type="hidden" name="seq" value="3">' in console.content.decode()

    yes = signed_in(crew.head_referee).post(decision, {"approve": "yes", "seq": "3"})
    no = signed_in(crew.organiser).post(
        decision, {"approve": "no", "seq": "3"}, headers={"HX-Request": "true"}
    )

    assert yes.status_code == 302
    assert no.status_code == 409 and "already_decided" in no.content.decode()
    assert Move.objects.filter(game=t17_game, kind=Move.Kind.DECISION).count() == 1
    assert in_force(t17_game) == [1]


# --- quick results ---------------------------------------------------------------------------


def test_a_quick_result_withdrawn_twice_is_withdrawn_once(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [3, 2, 1, 0])
    api = Api(crew.referee)
    body = {"reason": "wrong order", "result_version": 1}

    first = api.post(f"games/{game.pk}/quick-result/withdraw/", body)
    second = api.post(f"games/{game.pk}/quick-result/withdraw/", body)

    assert first.status_code == 200
    assert refused(second, "already_withdrawn")["expected_version"] == 2
    assert game.result_versions.count() == 2


def test_a_late_withdrawal_leaves_the_result_entered_since(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [3, 2, 1, 0])
    services.withdraw_quick_result(game, crew.referee, "wrong order", result_version=1)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    late = Api(crew.head_referee).post(
        f"games/{game.pk}/undo/", {"reason": "wrong order", "seq": 0, "result_version": 1}
    )

    body = refused(late, "already_withdrawn")
    assert body["expected_version"] == 3 and "nothing more was withdrawn" in body["message_en"]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [r.seat for r in game.results.order_by("place")] == [0, 1, 2, 3]


# --- rulings ---------------------------------------------------------------------------------


def test_a_void_confirmed_on_a_stale_page_is_asked_again(crew: Crew, t17_game: Game) -> None:
    seen = t17_game.version
    play(t17_game, crew.referee, 1)  # the table plays on while the head referee decides
    url = reverse("referee:void", args=[t17_game.pk])
    posted = {"reason": "cards exposed", "redeal": "1", "version": seen, "confirmed": "yes"}

    answer = signed_in(crew.head_referee).post(url, posted)

    assert answer.status_code == 409
    html = answer.content.decode()
    assert 'data-testid="ruling-error"' in html and "game_changed" in html
    t17_game.refresh_from_db()
    assert t17_game.status == Game.Status.IN_PLAY
    # Asked again, at the game's version now: one more tap rules on what they now see.
    assert 'data-testid="void-confirm"' in html
    assert f'<input type="hidden" name="version" value="{t17_game.version}">' in html
    again = signed_in(crew.head_referee).post(url, posted | {"version": t17_game.version})
    assert again.status_code == 302
    t17_game.refresh_from_db()
    assert t17_game.status == Game.Status.VOID


def test_a_void_sent_twice_voids_once(crew: Crew, t17_game: Game) -> None:
    head = Api(crew.head_referee)
    body = {"reason": "misdeal", "redeal": True, "version": t17_game.version}

    first = head.post(f"games/{t17_game.pk}/void/", body)
    second = head.post(f"games/{t17_game.pk}/void/", body)

    assert first.status_code == 200
    refused(second, "already_void")
    assert ResultVersion.objects.filter(game=t17_game).count() == 0
    assert t17_game.audit.count() == 1


def test_a_stale_forfeit_is_refused_and_the_game_plays_on(crew: Crew, t17_game: Game) -> None:
    seen = t17_game.version
    play(t17_game, crew.referee, 1)

    stale = Api(crew.head_referee).post(
        f"games/{t17_game.pk}/forfeit/", {"seat": 1, "reason": "ill", "version": seen}
    )

    assert refused(stale, "game_changed")["expected_version"] == seen + 1
    t17_game.refresh_from_db()
    assert (t17_game.status, t17_game.forfeit_seat) == (Game.Status.IN_PLAY, None)
    assert RejectedSubmission.objects.filter(action="forfeit", code="game_changed").exists()


def test_a_forfeit_sent_twice_is_recorded_once(crew: Crew, t17_game: Game) -> None:
    head = Api(crew.head_referee)
    body = {"seat": 1, "reason": "ill", "version": t17_game.version}

    first = head.post(f"games/{t17_game.pk}/forfeit/", body)
    second = head.post(f"games/{t17_game.pk}/forfeit/", body)

    assert first.status_code == 201
    refused(second, "already_forfeited")
    assert t17_game.result_versions.count() == 1


def test_a_correction_saved_twice_makes_one_version(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    url = reverse("referee:correction-save", args=[game.pk])
    posted = {"outcome_0": "clean-2", "outcome_1": "clean-1", "outcome_2": "clean-3"} | {
        "outcome_3": "clean-4",
        "reason": "sheet misread",
        "based_on_version": "1",
    }

    first = signed_in(crew.head_referee).post(url, posted)
    second = signed_in(crew.head_referee).post(url, posted, headers={"HX-Request": "true"})

    assert first.status_code == 302
    assert second.status_code == 409
    assert "This correction is saved already (version 2)" in second.content.decode()
    assert game.result_versions.count() == 2


def test_a_correction_on_a_result_changed_since_is_refused(crew: Crew) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    services.correct_result(
        game, crew.organiser, finishing_order=[1, 0, 2, 3], reason="a", based_on_version=1
    )

    with pytest.raises(services.GameError) as stale:
        services.correct_result(
            game, crew.head_referee, finishing_order=[0, 2, 1, 3], reason="b", based_on_version=1
        )

    assert (stale.value.code, stale.value.detail) == ("result_changed", {"expected_version": 2})
    assert "changed since you opened it" in stale.value.message_en
    game.refresh_from_db()
    assert [r.seat for r in game.results.order_by("place")] == [1, 0, 2, 3]


# --- the API requires the target -------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("undo/", {"reason": "misclick"}, "seq"),
        ("undo/decision/", {"approve": True}, "seq"),
        ("void/", {"reason": "misdeal", "redeal": True}, "version"),
        ("forfeit/", {"seat": 1, "reason": "ill"}, "version"),
    ],
)
def test_the_api_refuses_a_correction_without_its_target(
    crew: Crew, t17_game: Game, path: str, body: dict[str, Any], field: str
) -> None:
    play(t17_game, crew.referee, 1)
    t17_game.refresh_from_db()
    version = t17_game.version

    answer = Api(crew.head_referee).post(f"games/{t17_game.pk}/{path}", body)

    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_request" and field in answer.json()["detail"]
    t17_game.refresh_from_db()
    assert (t17_game.version, in_force(t17_game)) == (version, [1])


@pytest.mark.parametrize("path", ["quick-result/withdraw/", "undo/"])
def test_the_api_refuses_a_withdrawal_without_the_result_version(crew: Crew, path: str) -> None:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])

    answer = Api(crew.referee).post(f"games/{game.pk}/{path}", {"reason": "x", "seq": 0})

    assert answer.status_code == 400 and "result_version" in answer.json()["detail"]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


@pytest.mark.parametrize(
    ("path", "target", "conflict"),
    [
        ("undo/", "seq", "already_undone"),
        ("undo/decision/", "seq", "already_decided"),
        ("quick-result/withdraw/", "result_version", "already_withdrawn"),
        ("void/", "version", "game_changed"),
        ("forfeit/", "version", "game_changed"),
    ],
)
def test_the_schema_requires_the_target_and_documents_the_409(
    path: str, target: str, conflict: str
) -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    post = schema["paths"][f"/api/games/{{game_id}}/{path}"]["post"]
    ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]

    assert target in body["required"] and target in body["properties"]
    assert conflict in post["responses"]["409"]["description"]
