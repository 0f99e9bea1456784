"""A Guandan hand played move by move to its end writes the engine's team results (the two
losers of a 1-2 share third place; the winners' level gain, as points too), and the next hand
carries the match: the levels, and a tribute the losers owe before anyone plays."""

from __future__ import annotations

import pytest

from games import services
from games.engine.guandan import PHASE_TRIBUTE, TRIBUTE, Move, legal_moves, pending
from games.models import Game
from games.state import canonical
from tests.factories import UserFactory, guandan_table, play_guandan_hand

pytestmark = pytest.mark.django_db

SEED = "5e" * 32


def test_a_hand_played_out_writes_shared_third_place_and_the_level_change() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)
    game = services.start_game(table, referee)

    play_guandan_hand(game, referee, favoured=0)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    rows = list(game.results.order_by("place", "seat"))
    assert [(r.place, r.team) for r in rows] == [(1, 0), (2, 0), (3, 1), (3, 1)]
    assert {r.detail["finish"] for r in rows} == {"1-2"}
    assert [r.detail["team_level"] for r in rows] == ["5", "5", "2", "2"]
    assert [r.detail["level_gain"] for r in rows] == [3, 3, 0, 0]
    assert [r.points for r in rows] == [3, 3, 0, 0]
    assert not any(r.detail["match_won"] for r in rows)


def test_the_next_hand_carries_the_levels_and_the_losers_pay_tribute_first() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed=SEED)
    first = services.start_game(table, referee)
    play_guandan_hand(first, referee, favoured=0)
    first.refresh_from_db()
    order = [r.seat for r in first.results.order_by("place", "seat")]

    second = services.start_game(table, referee)

    assert second.game_number == 2 and second.leader is None
    assert second.match is not None
    assert second.match["levels"] == ["5", "2"]
    assert second.match["previous"][:2] == order[:2]
    state = services.current_state(second)
    assert state.phase == PHASE_TRIBUTE  # type: ignore[attr-defined]
    payers = sorted(d.seat for d in pending(state))  # type: ignore[arg-type]
    assert payers == sorted(order[2:])
    # Nobody plays before the tribute: the first finisher's lead is refused.
    leading = Move.play(order[0], "3S")
    refused = services.submit_move(second, canonical(second, leading), 1, referee)
    assert (refused.http_status, refused.code) == (422, "tribute_invalid")
    tribute = next(m for m in legal_moves(state) if m.action == TRIBUTE)  # type: ignore[arg-type]
    assert services.submit_move(second, canonical(second, tribute), 1, referee).ok
