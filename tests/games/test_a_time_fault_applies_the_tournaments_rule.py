"""A referee's time fault (時間切れ, `record_time_fault`) applies the tournament's rule to the
seat in turn: a warning (警告), a forced pass through the move write path — or, when the engine
refuses the pass because the seat leads, a warning that says why — or a deduction of
`time_fault_points` that the standings count. Each shows in the console's log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game, Move, TimeFault
from games.services import GameError, record_time_fault, submit_move
from scoring.standings import ScopeRef, standings
from tests.factories import (
    EIGHT_CUT_HANDS,
    EIGHT_CUT_MOVES,
    GameFactory,
    backdate_decision,
    browser,
)
from tournaments.models import AuditEntry, Penalty, Tournament

from .conftest import Crew

# The clock fixture: the think times asserted here are exact, whatever the machine's load.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def game(crew: Crew) -> Game:
    made: Game = GameFactory(table=crew.table, game_number=1, hands=EIGHT_CUT_HANDS, leader=0)
    return made


def set_rule(crew: Crew, rule: str, points: int = 1) -> None:
    Tournament.objects.filter(pk=crew.tournament.pk).update(
        time_fault_rule=rule, time_fault_points=points
    )


def log_of(crew: Crew) -> str:
    client = browser("en")
    client.force_login(crew.referee)
    return client.get(f"/referee/tables/{crew.table.pk}/").content.decode()


def test_a_warning_is_a_penalty_warning_for_the_seats_entrant(crew: Crew, game: Game) -> None:
    backdate_decision(game, 25)
    outcome = record_time_fault(game, 0, crew.referee)

    fault = outcome.fault
    assert outcome.created and fault.rule == TimeFault.Rule.WARNING
    assert fault.think_ms == 25000
    penalty = Penalty.objects.get(pk=fault.penalty_id)
    assert (penalty.kind, penalty.points, penalty.entry.player.display_name) == (
        "warning",
        0,
        "Aoki",
    )
    assert penalty.game_id == game.pk
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PENALTY_GIVEN).exists()
    assert "Time fault: Seat 1, 25." in log_of(crew)


def test_a_forced_pass_is_stored_as_the_seats_pass(crew: Crew, game: Game) -> None:
    set_rule(crew, "forced_pass")
    assert submit_move(game, EIGHT_CUT_MOVES[0], 1, crew.referee).ok
    backdate_decision(game, 21)

    fault = record_time_fault(game, 1, crew.referee, seq=1).fault

    assert fault.rule == TimeFault.Rule.FORCED_PASS and fault.pass_seq == 2
    passed = Move.objects.get(game=game, seq=2)
    assert passed.payload == {"seat": 1, "pass": True}
    assert passed.think_ms == 21000
    assert not Penalty.objects.exists()
    # The game goes on from the pass: seat 2 is in turn.
    assert submit_move(game, {"seat": 2, "play": ["7S"]}, 3, crew.referee).ok
    assert "forced pass" in log_of(crew)


def test_a_forced_pass_on_a_lead_is_recorded_as_a_warning_saying_why(
    crew: Crew, game: Game
) -> None:
    set_rule(crew, "forced_pass")
    backdate_decision(game, 30)

    outcome = record_time_fault(game, 0, crew.referee, seq=0)

    assert outcome.fault.rule == TimeFault.Rule.WARNING
    assert outcome.fault.refused_code == "must_lead"
    assert "must_lead" in outcome.message_en and "警告" in outcome.message_ja
    assert Penalty.objects.get().kind == Penalty.Kind.WARNING
    assert not Move.objects.filter(game=game).exists()


def test_a_penalty_deducts_the_tournaments_points_in_the_standings(
    crew: Crew, game: Game, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    set_rule(crew, "penalty", points=3)
    backdate_decision(game, 40)

    with django_capture_on_commit_callbacks(execute=True):
        fault = record_time_fault(game, 0, crew.referee).fault

    assert fault.rule == TimeFault.Rule.PENALTY
    assert (fault.penalty.kind, fault.penalty.points) == ("deduction", 3)
    board = {
        row.player.display_name: row for row in standings(ScopeRef.tournament(crew.tournament.pk))
    }
    assert board["Aoki"].penalty_points == 3
    assert "3 point(s) deducted" in log_of(crew)


def test_no_fault_before_time_is_up_nor_for_a_seat_not_in_turn(crew: Crew, game: Game) -> None:
    backdate_decision(game, 5)
    with pytest.raises(GameError) as early:
        record_time_fault(game, 0, crew.referee)
    backdate_decision(game, 25)
    with pytest.raises(GameError) as other:
        record_time_fault(game, 2, crew.referee)

    assert (early.value.code, other.value.code) == ("time_not_up", "not_in_turn")
    assert not TimeFault.objects.exists()
