"""Cut lines and stage advancement count confirmed results only: a provisional result (暫定,
not yet confirmed by a second official) moves nobody across the line — neither by its points
nor by the titles the tie-breaks count — until it is confirmed. Deductions do count."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.models import Game
from scoring.cuts import cut_line
from scoring.cuts import stage_ranking as scoring_ranking
from scoring.standings import recompute_tournament
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments import ranking
from tournaments.models import Penalty, Stage, Table


@pytest.fixture
def top_one(cup: Cup) -> Table:
    """Qualifying cut to one; round 1 at one table, game 1 confirmed: Aoki 3, Baba 2."""
    Stage.objects.filter(pk=cup.stage.pk).update(advance_top_n=1)
    cup.stage.refresh_from_db()
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1, confirmed=True)
    return table


def test_a_provisional_win_does_not_move_anyone_over_the_line(cup: Cup, top_one: Table) -> None:
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(top_one, [baba, chiba, doi, aoki], game_number=2)  # not confirmed yet
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(cup.stage)
    advance_on = ranking.stage_ranking(cup.stage)  # what the organiser's advance cuts on

    # Baba leads the board on 5 points to Aoki's 3, but only Aoki's 3 to Baba's 2 are final.
    assert cut.advancing == {aoki.pk}
    assert cut.provisional_games == 4
    assert cut.line_after_entry is None  # the board's first row (Baba) is not the one in
    assert advance_on.keys[aoki.pk] > advance_on.keys[baba.pk]
    assert (advance_on.points[aoki.pk], advance_on.points[baba.pk]) == (3, 2)


def test_once_confirmed_the_win_counts(cup: Cup, top_one: Table) -> None:
    aoki, baba, chiba, doi = cup.entries[:4]
    game = finished_game(top_one, [baba, chiba, doi, aoki], game_number=2)
    Game.objects.filter(pk=game.pk).update(status="confirmed", confirmed_at=game.finished_at)  # type: ignore[attr-defined]
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(cup.stage)

    assert cut.advancing == {baba.pk}
    assert cut.line_after_entry == baba.pk


def test_a_provisional_title_breaks_no_confirmed_tie(cup: Cup) -> None:
    """Aoki and Baba are equal on every confirmed key; a provisional game worth no points
    gives Baba a 大富豪 title — which would break the tie on the board, not at the cut."""
    Stage.objects.filter(pk=cup.stage.pk).update(advance_top_n=1)
    cup.stage.refresh_from_db()
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [aoki, baba, chiba, doi], game_number=1, confirmed=True)
    finished_game(table, [baba, aoki, chiba, doi], game_number=2, confirmed=True)
    finished_game(table, [baba, chiba, doi, aoki], game_number=3, points=(0, 0, 0, 0))
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(cup.stage)

    assert cut.advancing == frozenset()
    assert (set(cut.tied), cut.places_left) == ({aoki.pk, baba.pk}, 1)


def test_a_deduction_can_move_someone_below_the_line(cup: Cup, top_one: Table) -> None:
    aoki, baba = cup.entries[:2]
    Penalty.objects.create(
        tournament=cup.tournament,
        entry=aoki,
        round=top_one.round,
        kind="deduction",
        points=2,
        reason="marked cards",
    )
    recompute_tournament(cup.tournament.pk)

    assert cut_line(cup.stage).advancing == {baba.pk}


def test_tournaments_without_scoring_also_rank_on_confirmed_points(
    cup: Cup, top_one: Table
) -> None:
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(top_one, [baba, chiba, doi, aoki], game_number=2)  # provisional
    Penalty.objects.create(
        tournament=cup.tournament,
        entry=chiba,
        round=top_one.round,
        kind="deduction",
        points=1,
        reason="late",
    )
    ranking.register_stage_ranking(None)  # tournaments alone: total points, no tie-breaks
    try:
        with translation.override("en"):  # the basis is said in the reader's language
            alone = ranking.stage_ranking(cup.stage)
    finally:
        ranking.register_stage_ranking(scoring_ranking)

    assert {e.player.display_name: alone.points[e.pk] for e in cup.entries[:4]} == {
        "Aoki": 3,
        "Baba": 2,
        "Chiba": 0,
        "Doi": 0,
    }
    assert "confirmed" in alone.basis


def test_the_advance_page_shows_confirmed_points(client: Client, cup: Cup, top_one: Table) -> None:
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(top_one, [baba, chiba, doi, aoki], game_number=2)  # provisional
    client.force_login(cup.organiser)

    page = client.get(f"/organiser/{cup.tournament.slug}/stages/{cup.stage.pk}/advance/")

    html = page.content.decode()
    assert "Ranked by standings, confirmed results only: points" in html
    # Aoki first on 3 confirmed points, Baba second on 2 (not 5).
    assert html.index("Aoki") < html.index("Baba")
    assert '<td class="num">2</td></tr>' in html.split("Baba", 1)[1]
