"""submit_move: seq semantics, engine verdicts, nothing written when rejected, results."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Game, GameResult, Move
from games.services import submit_move

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def test_the_next_seq_is_applied_and_stored_with_its_events(crew: Crew, t17_game: Game) -> None:
    outcome = submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.referee)

    assert (outcome.status, outcome.http_status, outcome.seq) == ("accepted", 201, 1)
    assert outcome.events == [
        {"kind": "played", "seat": 0, "cards": ["5D"], "combination": "single"}
    ]
    row = Move.objects.get(game=t17_game)
    assert (row.seq, row.seat, row.payload, row.actor) == (
        1,
        0,
        {"seat": 0, "play": ["5D"]},
        crew.referee,
    )
    t17_game.refresh_from_db()
    assert (t17_game.last_seq, t17_game.version) == (1, 1)


def test_an_identical_resubmission_gets_the_same_answer_again(crew: Crew, t17_game: Game) -> None:
    first = submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.referee)
    again = submit_move(t17_game, {"play": ["5D"], "seat": 0}, 1, crew.referee)

    assert (again.status, again.http_status) == ("replayed", 200)
    assert again.events == first.events
    assert Move.objects.filter(game=t17_game).count() == 1


def test_a_different_move_at_a_taken_seq_conflicts_with_the_expected_seq(
    crew: Crew, t17_game: Game
) -> None:
    submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.referee)

    outcome = submit_move(t17_game, {"seat": 0, "play": ["9C"]}, 1, crew.referee)

    assert (outcome.status, outcome.http_status) == ("conflict", 409)
    assert outcome.error_body()["expected_seq"] == 2
    assert outcome.error_body()["code"] == "seq_conflict"


def test_a_seq_ahead_of_the_log_conflicts(crew: Crew, t17_game: Game) -> None:
    outcome = submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 3, crew.referee)

    assert (outcome.http_status, outcome.expected_seq) == (409, 1)
    assert not Move.objects.exists()


def test_an_illegal_move_answers_in_both_languages_and_changes_nothing(
    crew: Crew, t17_game: Game
) -> None:
    submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.referee)
    before = Game.objects.values().get(pk=t17_game.pk)

    outcome = submit_move(t17_game, {"seat": 3, "play": ["6H"]}, 2, crew.referee)

    assert (outcome.status, outcome.http_status, outcome.code) == (
        "rejected",
        422,
        "not_your_turn",
    )
    assert outcome.message_en and outcome.message_ja
    assert outcome.message_ja != outcome.message_en
    assert Game.objects.values().get(pk=t17_game.pk) == before
    assert Move.objects.filter(game=t17_game).count() == 1
    # The same seq is still free for the right move.
    assert submit_move(t17_game, {"seat": 1, "play": ["2C"]}, 2, crew.referee).ok


def test_a_card_not_in_hand_is_rejected_with_the_engine_code(crew: Crew, t17_game: Game) -> None:
    outcome = submit_move(t17_game, {"seat": 0, "play": ["AS"]}, 1, crew.referee)

    assert (outcome.http_status, outcome.code) == (422, "card_not_in_hand")
    assert Game.objects.get(pk=t17_game.pk).version == 0


def test_a_payload_that_is_not_a_move_is_a_bad_request(crew: Crew, t17_game: Game) -> None:
    assert submit_move(t17_game, {"seat": 9, "pass": True}, 1, crew.referee).http_status == 400
    assert submit_move(t17_game, {"seat": 0, "play": ["ZZ"]}, 1, crew.referee).code == (
        "unknown_card"
    )


def test_only_the_tables_officials_may_submit(crew: Crew, t17_game: Game) -> None:
    with pytest.raises(PermissionDenied):
        submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.other_referee)
    with pytest.raises(PermissionDenied):
        submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.outsider_organiser)

    assert submit_move(t17_game, {"seat": 0, "play": ["5D"]}, 1, crew.head_referee).ok
    assert submit_move(t17_game, {"seat": 1, "play": ["2C"]}, 2, crew.organiser).ok


def test_the_last_move_finishes_the_game_with_titles_and_points(crew: Crew, t17_game: Game) -> None:
    outcomes = [submit_move(t17_game, m, i, crew.referee) for i, m in enumerate(T17_MOVES, 1)]

    assert [o.status for o in outcomes] == ["accepted"] * 6
    assert outcomes[-1].game_over
    t17_game.refresh_from_db()
    assert t17_game.status == Game.Status.FINISHED
    assert t17_game.finished_by == crew.referee
    results = [
        (
            r.entry.number,
            r.place,
            *(r.detail[k] for k in ("title", "foul", "miyako_ochi")),
            r.points,
        )
        for r in GameResult.objects.filter(game=t17_game).select_related("entry")
    ]
    # REFERENCE §1.4 JDF-T17 (seat = table position - 1), points 3-2-1-0.
    assert results == [
        (4, 1, "daifugo", False, False, 3),
        (1, 2, "fugo", False, False, 2),
        (3, 3, "hinmin", True, False, 1),
        (2, 4, "daihinmin", True, False, 0),
    ]
    after = submit_move(t17_game, {"seat": 0, "pass": True}, 7, crew.referee)
    assert (after.http_status, after.code) == (422, "game_over")


def test_state_is_rebuilt_from_moves_alone(crew: Crew, t17_game: Game) -> None:
    from games.state import rebuild

    for i, m in enumerate(T17_MOVES[:3], 1):
        submit_move(t17_game, m, i, crew.referee)
    state = rebuild(Game.objects.get(pk=t17_game.pk))

    assert state.counts == (1, 0, 0, 1)
    assert state.turn == 3
    assert state.fouls == (1, 2)
