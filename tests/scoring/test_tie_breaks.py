"""Ties are broken as the tournament configures; equal on every key means a shared rank."""

from __future__ import annotations

from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Tournament
from tournaments.points import preset_points_table


def _order(cup: Cup) -> list[tuple[str, int, bool]]:
    """(name, rank, shared) of the players who played (the four others are checked in only)."""
    recompute_tournament(cup.tournament.pk)
    return [
        (r.player.display_name, r.rank, r.shared)
        for r in standings(ScopeRef.tournament(cup.tournament.pk))
        if r.games
    ]


def _two_games(cup: Cup, points: tuple[int, ...]) -> None:
    """Aoki and Baba both score 4 points over two games; Aoki by a 大富豪 (4+0), Baba by two
    富豪 (2+2); Chiba 2+2 too but with a foul finish; Doi 1+0."""
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, doi, chiba], game_number=1, points=points)
    finished_game(table, [chiba, baba, doi, aoki], game_number=2, points=points, fouls=(1,))


def test_by_default_more_daifugo_titles_win_a_points_tie(cup: Cup) -> None:
    # Points per place chosen so the sums tie: 4 / 2 / 1 / 0.
    _two_games(cup, (4, 2, 1, 0))

    order = _order(cup)

    # Aoki 4 (1×大富豪), Chiba 4 (1×大富豪, 1 foul), Baba 4 (0×大富豪, 2×富豪), Doi 2.
    # Aoki and Chiba tie on 大富豪 and 富豪 counts; fewer fouls puts Aoki first.
    assert order == [("Aoki", 1, False), ("Chiba", 2, False), ("Baba", 3, False), ("Doi", 4, False)]


def test_an_organiser_order_puts_fewer_fouls_before_titles(cup: Cup) -> None:
    table = preset_points_table("3-2-1-0")
    table["tie_breaks"] = ["points", "fewer_fouls", "fugo"]
    Tournament.objects.filter(pk=cup.tournament.pk).update(points_table=table)
    _two_games(cup, (4, 2, 1, 0))

    order = _order(cup)

    # Fewer fouls first: Aoki and Baba (0 fouls) before Chiba; then more 富豪: Baba (2) first.
    assert order == [("Baba", 1, False), ("Aoki", 2, False), ("Chiba", 3, False), ("Doi", 4, False)]


def test_entrants_equal_on_every_key_share_a_rank(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1)
    finished_game(table, [baba, aoki, doi, chiba], game_number=2)

    order = _order(cup)

    # Aoki and Baba: 5 points, one 大富豪 and one 富豪 each, no fouls, best set 5: shared 1st.
    # Chiba and Doi: 1 point each, equal too: shared 3rd (the next rank after two is 3).
    assert order == [("Aoki", 1, True), ("Baba", 1, True), ("Chiba", 3, True), ("Doi", 3, True)]


def test_best_set_separates_equal_totals_and_titles(cup: Cup) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    table_points = preset_points_table("3-2-1-0")
    table_points["tie_breaks"] = ["points", "best_set"]
    Tournament.objects.filter(pk=cup.tournament.pk).update(points_table=table_points)
    # Set 1: Aoki 3+3, Baba 0+0. Set 2: Aoki 0+0, Baba 3+3. Equal totals and best sets.
    # Set 3 (one game): Chiba scores 2, Doi 1 — irrelevant to the top two.
    finished_game(table, [aoki, chiba, doi, baba], set_number=1, game_number=1)
    finished_game(table, [aoki, chiba, doi, baba], set_number=1, game_number=2)
    finished_game(table, [baba, doi, chiba, aoki], set_number=2, game_number=1)
    finished_game(table, [baba, chiba, doi, aoki], set_number=2, game_number=2, points=(4, 2, 1, 0))

    order = _order(cup)

    # Baba: 3+4=7, best set 7; Aoki 6, best set 6. Chiba 2+2+1+2=7, best set 4 → below Baba.
    assert order[:2] == [("Baba", 1, False), ("Chiba", 2, False)]
    assert order[2] == ("Aoki", 3, False)
