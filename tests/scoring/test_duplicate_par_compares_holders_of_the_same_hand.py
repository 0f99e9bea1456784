"""Duplicate Daifugo's par (docs/duplicate.md, "A worked example"): a duplicate round of 16
players is a group of 4 tables playing one deal, each from another seat; each player's
duplicate score is their points minus the mean of the other three holders of their hand."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import Game, GameResult
from scoring.models import Standing
from scoring.standings import ScopeRef, recompute_scope
from tests.factories import duplicate_round
from tournaments.models import Round
from tournaments.services import draw_round, publish_round

pytestmark = pytest.mark.django_db

# The worked example of docs/duplicate.md: the place of the holder of hand A, B, C, D at each
# table of the group (3-2-1-0 points for places 1-4) …
PLACES = {
    1: {"A": 1, "B": 2, "C": 3, "D": 4},
    2: {"A": 1, "B": 3, "C": 2, "D": 4},
    3: {"A": 2, "B": 1, "C": 3, "D": 4},
    4: {"A": 1, "B": 2, "C": 4, "D": 3},
}
# … and the duplicate scores the doc computes by hand from them.
EXPECTED = {
    1: {"A": "0.33", "B": "0.00", "C": "0.00", "D": "-0.33"},
    2: {"A": "0.33", "B": "-1.33", "C": "1.33", "D": "-0.33"},
    3: {"A": "-1.00", "B": "1.33", "C": "0.00", "D": "-0.33"},
    4: {"A": "0.33", "B": "0.00", "C": "-1.33", "D": "1.00"},
}
HANDS = "ABCD"


@pytest.fixture
def drawn() -> tuple[Round, User]:
    round_, organiser = duplicate_round(16)
    assert isinstance(organiser, User)
    return round_, organiser


def play_the_example(round_: Round, referee: User) -> dict[tuple[int, str], int]:
    """Each table's game in quick mode, finishing as `PLACES` says; returns the entry that held
    each (table, hand)."""
    holders = {}
    for table in round_.tables.order_by("number"):
        game = games.start_game(table, referee, mode=Game.Mode.QUICK)
        # Hand h of the deal sits at engine seat (h + rotation) % 4.
        seat_of = {h: (i + game.deal_rotation) % 4 for i, h in enumerate(HANDS)}
        order = sorted(HANDS, key=lambda h: PLACES[table.number][h])
        games.record_quick_result(game, referee, [seat_of[h] for h in order])
        for hand, seat in seat_of.items():
            holders[table.number, hand] = GameResult.objects.get(game=game, seat=seat).entry_id
    return holders


def test_the_worked_example_gives_the_documented_duplicate_scores(
    drawn: tuple[Round, User],
) -> None:
    round_, organiser = drawn
    tournament = round_.stage.tournament
    holders = play_the_example(round_, organiser)

    recompute_scope(ScopeRef.tournament(tournament.pk))

    rows = {
        s.entry_id: s for s in Standing.objects.filter(scope="tournament", tournament=tournament)
    }
    for (table, hand), entry_id in holders.items():
        assert rows[entry_id].duplicate_points == Decimal(EXPECTED[table][hand]), (table, hand)
        assert rows[entry_id].duplicate_games == 1
        assert rows[entry_id].points == 4 - PLACES[table][hand]
    # Par compares each hand with itself: over the group the duplicate scores cancel out.
    assert sum(r.duplicate_points or 0 for r in rows.values()) == Decimal("0.00")


def test_every_table_of_the_group_keeps_the_deal_key_and_its_rotation(
    drawn: tuple[Round, User],
) -> None:
    round_, organiser = drawn
    play_the_example(round_, organiser)

    dealt = Game.objects.filter(table__round=round_).order_by("table__number")

    assert [(g.deal_key, g.deal_rotation) for g in dealt] == [
        ("duplicate/1/seats/4/set/1/game/1", rotation) for rotation in range(4)
    ]


def test_a_lone_holder_so_far_has_no_par_yet(drawn: tuple[Round, User]) -> None:
    round_, organiser = drawn
    tournament = round_.stage.tournament
    table = round_.tables.get(number=1)
    game = games.start_game(table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(game, organiser, [0, 1, 2, 3])

    recompute_scope(ScopeRef.tournament(tournament.pk))

    rows = Standing.objects.filter(scope="tournament", tournament=tournament)
    assert {(r.duplicate_points, r.duplicate_games) for r in rows} == {(Decimal("0.00"), 0)}


def test_an_ordinary_round_has_no_duplicate_score(drawn: tuple[Round, User]) -> None:
    duplicate, organiser = drawn
    tournament = duplicate.stage.tournament
    # The same field's next round drawn as an ordinary one (the duplicate round left unplayed).
    drawn_next = draw_round(duplicate.stage, organiser, override_reason="ordinary round")
    round_ = publish_round(drawn_next, organiser)
    table = round_.tables.get(number=1)
    game = games.start_game(table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(game, organiser, [0, 1, 2, 3])

    recompute_scope(ScopeRef.tournament(tournament.pk))

    assert game.deal_key == ""
    rows = Standing.objects.filter(scope="tournament", tournament=tournament)
    assert {(r.duplicate_points, r.duplicate_games) for r in rows} == {(None, 0)}


def test_a_redeal_is_the_tables_own_deal_and_drops_out_of_par(drawn: tuple[Round, User]) -> None:
    round_, organiser = drawn
    tournament = round_.stage.tournament
    holders = play_the_example(round_, organiser)
    voided = Game.objects.get(table__round=round_, table__number=3)
    games.void_game(voided, organiser, reason="misdeal", redeal=True)
    redeal = games.start_game(voided.table, organiser, mode=Game.Mode.QUICK)
    games.record_quick_result(redeal, organiser, [0, 1, 2, 3])

    recompute_scope(ScopeRef.tournament(tournament.pk))

    assert (redeal.attempt, redeal.deal_key, redeal.deal_rotation) == (2, "", 0)
    rows = {
        s.entry_id: s for s in Standing.objects.filter(scope="tournament", tournament=tournament)
    }
    # Table 3's players have no par; the other three tables compare among themselves: hand A
    # scored 3 at tables 1, 2 and 4, so par is level for all of them.
    assert {rows[holders[3, h]].duplicate_games for h in HANDS} == {0}
    assert [rows[holders[t, "A"]].duplicate_points for t in (1, 2, 4)] == [Decimal("0.00")] * 3
    assert rows[holders[4, "D"]].duplicate_points == Decimal("1.00")
