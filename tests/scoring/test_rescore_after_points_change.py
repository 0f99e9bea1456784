"""Changing the points table and recomputing with rescore re-derives every result's points."""

from __future__ import annotations

from games.models import Game, GameResult
from scoring.standings import ScopeRef, recompute_tournament, rescore_results, standings
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Tournament
from tournaments.points import preset_points_table


def test_rescore_applies_a_new_table_and_is_idempotent(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1)
    finished_game(table, [baba, aoki, chiba, doi], game_number=4)
    Tournament.objects.filter(pk=cup.tournament.pk).update(
        points_table=preset_points_table("50-30-20-10-last70")
    )
    cup.tournament.refresh_from_db()

    changed = rescore_results(cup.tournament)
    again = rescore_results(cup.tournament)
    recompute_tournament(cup.tournament.pk)

    assert (changed, again) == (8, 0)
    # Game 4 is the last of a set of four: Baba's first place there pays 70.
    assert sorted(GameResult.objects.filter(entry=baba).values_list("points", flat=True)) == [
        30,
        70,
    ]
    top = standings(ScopeRef.tournament(cup.tournament.pk))[0]
    assert (top.player.display_name, top.points) == ("Baba", 100)


def test_a_seat_that_left_keeps_the_leavers_points(cup: Cup) -> None:
    """With `forfeit_leaver_points` set, the games service wrote them for the leaver (途中棄権)
    instead of last place's points; a rescore keeps them."""
    Tournament.objects.filter(pk=cup.tournament.pk).update(forfeit_leaver_points=-3)
    cup.tournament.refresh_from_db()
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    game = finished_game(table, [aoki, baba, chiba, doi], points=(3, 2, 1, -3))
    Game.objects.filter(pk=game.pk).update(forfeit_seat=3)  # type: ignore[attr-defined]
    GameResult.objects.filter(game=game, entry=doi).update(forfeit=True)

    changed = rescore_results(cup.tournament)
    recompute_tournament(cup.tournament.pk)

    assert changed == 0
    row = next(r for r in standings(ScopeRef.tournament(cup.tournament.pk)) if r.entry == doi)
    assert (row.points, row.provisional_games) == (-3, 0)  # a forfeit ends the game: confirmed
