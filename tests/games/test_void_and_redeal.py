"""A void game (misdeal, wrong cards…) counts for nothing. Re-dealt, the table plays the same
game again as attempt 2 with a new deal from the round's seed (`/attempt/2`, verifiable after
the reveal); not re-dealt, the table moves on to the next game. A settled round takes no void."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.engine import card_names
from games.models import Game
from games.services import (
    GameError,
    record_quick_result,
    start_game,
    void_game,
)
from tests.factories import play_round_quickly
from tournaments.deals import derive_deal
from tournaments.models import AuditEntry
from tournaments.services import complete_round

from .conftest import Crew

pytestmark = pytest.mark.django_db


def dealt_hands(crew: Crew, attempt: int) -> list[list[str]]:
    """Set 1 game 1 at the crew's table as `tournaments.deals` derives it from the seed."""
    tournament = crew.tournament
    deal = derive_deal(
        crew.table.round.seed_secret,
        ruleset_id=tournament.ruleset_id,
        ruleset_version=tournament.ruleset_version,
        seats=4,
        table=crew.table.number,
        set_number=1,
        game=1,
        attempt=attempt,
    )
    return [card_names(hand) for hand in deal.hands]


def test_a_redeal_plays_the_same_game_again_with_the_seeds_attempt_2_deal(crew: Crew) -> None:
    first = start_game(crew.table, crew.referee)

    void_game(first, crew.head_referee, reason="cards exposed while dealing", redeal=True)
    again = start_game(crew.table, crew.referee)

    assert (again.set_number, again.game_number, again.attempt) == (1, 1, 2)
    assert first.hands == dealt_hands(crew, attempt=1)
    assert again.hands == dealt_hands(crew, attempt=2)
    assert again.hands != first.hands


def test_a_void_game_has_no_results_and_says_why(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    record_quick_result(game, crew.referee, [0, 1, 2, 3])

    void_game(game, crew.head_referee, reason="wrong number of cards", redeal=True)

    game.refresh_from_db()
    assert (game.status, game.void_reason, game.voided_by) == (
        Game.Status.VOID,
        "wrong number of cards",
        crew.head_referee,
    )
    assert not game.results.exists()
    withdrawn = game.result_versions.get(number=game.result_version)
    assert (withdrawn.kind, withdrawn.placings) == ("void", [])
    assert game.result_versions.get(number=1).placings  # the voided result stays on record
    audit = AuditEntry.objects.get(game=game, action=AuditEntry.Action.GAME_VOIDED)
    assert (audit.reason, audit.data["redeal"]) == ("wrong number of cards", True)


def test_a_void_without_redeal_moves_the_table_on_to_the_next_game(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    void_game(game, crew.organiser, reason="player arrived late, game skipped", redeal=False)
    following = start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)

    assert (following.set_number, following.game_number, following.attempt) == (1, 2, 1)


def test_voiding_needs_a_ruling_official_and_a_reason(crew: Crew) -> None:
    game = start_game(crew.table, crew.referee)

    with pytest.raises(PermissionDenied):
        void_game(game, crew.referee, reason="misdeal", redeal=True)
    with pytest.raises(GameError) as caught:
        void_game(game, crew.head_referee, reason=" ", redeal=True)

    assert caught.value.code == "reason_required"
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY


def test_voiding_is_refused_in_a_complete_round(crew: Crew) -> None:
    round_ = crew.table.round
    play_round_quickly(round_, crew.referee, crew.head_referee)
    complete_round(round_, crew.organiser)
    last = crew.table.games.order_by("-set_number", "-game_number").first()
    assert last is not None

    with pytest.raises(GameError) as caught:
        void_game(last, crew.organiser, reason="misdeal found afterwards", redeal=True)

    assert caught.value.code == "round_settled"
    last.refresh_from_db()
    assert last.status == Game.Status.CONFIRMED
