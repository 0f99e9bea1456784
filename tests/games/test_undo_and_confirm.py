"""Undo is a new row with a reason (head-referee approval when the tournament wants it);
a finished game is confirmed by a second official or a player at the table."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Game, GameResult, Move
from games.services import (
    GameError,
    confirm_game,
    decide_undo,
    request_undo,
    submit_move,
)
from games.state import rebuild
from tests.factories import UserFactory

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def play(game: Game, crew: Crew, moves: list[dict[str, object]]) -> None:
    for move in moves:
        game.refresh_from_db()
        assert submit_move(game, move, game.last_seq + 1, crew.referee).ok


def test_an_undo_is_recorded_with_its_reason_and_takes_the_move_back(
    crew: Crew, t17_game: Game
) -> None:
    play(t17_game, crew, T17_MOVES[:2])

    undo = request_undo(t17_game, crew.referee, "seat 2 misplayed the 2")

    assert (undo.kind, undo.seq, undo.ref_seq, undo.approved) == ("undo", 3, 2, True)
    t17_game.refresh_from_db()
    state = rebuild(t17_game)
    assert (state.turn, state.counts) == (1, (1, 1, 1, 1))
    # The log keeps the undone move: append-only.
    assert list(Move.objects.filter(game=t17_game).values_list("seq", "kind")) == [
        (1, "action"),
        (2, "action"),
        (3, "undo"),
    ]
    assert submit_move(t17_game, {"seat": 1, "pass": True}, 4, crew.referee).ok


def test_an_undo_needs_a_reason(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew, T17_MOVES[:1])

    with pytest.raises(GameError, match="reason"):
        request_undo(t17_game, crew.referee, "  ")


def test_with_approval_required_the_game_waits_for_the_head_referee(
    crew: Crew, t17_game: Game
) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew, T17_MOVES[:2])

    undo = request_undo(t17_game, crew.referee, "wrong card entered")
    blocked = submit_move(t17_game, {"seat": 2, "play": ["JK"]}, 4, crew.referee)
    with pytest.raises(PermissionDenied):
        decide_undo(t17_game, crew.referee, approve=True)
    decide_undo(t17_game, crew.head_referee, approve=True)

    assert undo.approved is None
    assert (blocked.http_status, blocked.code) == (422, "undo_pending")
    t17_game.refresh_from_db()
    assert rebuild(t17_game).turn == 1
    assert t17_game.last_seq == 4


def test_a_refused_undo_leaves_the_move_in_force(crew: Crew, t17_game: Game) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew, T17_MOVES[:2])
    request_undo(t17_game, crew.referee, "thought it was wrong")

    decide_undo(t17_game, crew.head_referee, approve=False)

    t17_game.refresh_from_db()
    assert rebuild(t17_game).turn == 2
    assert submit_move(t17_game, T17_MOVES[2], 5, crew.referee).ok


def test_a_head_referees_own_undo_needs_no_approval(crew: Crew, t17_game: Game) -> None:
    crew.tournament.undo_requires_approval = True
    crew.tournament.save()
    play(t17_game, crew, T17_MOVES[:1])

    assert request_undo(t17_game, crew.head_referee, "entered twice").approved is True


def test_undoing_the_final_move_reopens_the_game(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew, T17_MOVES)

    request_undo(t17_game, crew.referee, "6H was not the last card")

    t17_game.refresh_from_db()
    assert t17_game.status == Game.Status.IN_PLAY
    assert not GameResult.objects.filter(game=t17_game).exists()


def test_a_second_official_confirms_a_finished_game(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew, T17_MOVES)

    with pytest.raises(PermissionDenied):
        confirm_game(t17_game, crew.referee)  # who recorded the end
    with pytest.raises(PermissionDenied):
        confirm_game(t17_game, crew.outsider_organiser)
    confirm_game(t17_game, crew.other_referee)

    t17_game.refresh_from_db()
    assert (t17_game.status, t17_game.confirmed_by) == (Game.Status.CONFIRMED, crew.other_referee)
    with pytest.raises(GameError):
        request_undo(t17_game, crew.head_referee, "too late")


def test_a_player_at_the_table_may_confirm(crew: Crew, t17_game: Game) -> None:
    play(t17_game, crew, T17_MOVES)
    seat = crew.table.seats.get(position=2)
    player_user = UserFactory(username="baba")
    seat.entry.player.user = player_user
    seat.entry.player.save()

    assert confirm_game(t17_game, player_user).status == Game.Status.CONFIRMED


def test_an_unfinished_game_cannot_be_confirmed(crew: Crew, t17_game: Game) -> None:
    with pytest.raises(GameError):
        confirm_game(t17_game, crew.head_referee)
