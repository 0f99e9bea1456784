"""The cut line follows the stage's rule over its standings' confirmed results, by the
configured tie-breaks, and reports (never decides) a shared rank straddling it."""

from __future__ import annotations

from scoring.cuts import cut_line
from scoring.standings import recompute_tournament
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Stage
from tournaments.ranking import stage_ranking


def _stage(cup: Cup, **rule: int) -> Stage:
    Stage.objects.filter(pk=cup.stage.pk).update(**rule)
    cup.stage.refresh_from_db()
    return cup.stage


def test_top_n_takes_the_best_ranked_and_draws_the_line(cup: Cup) -> None:
    stage = _stage(cup, advance_top_n=3)
    t1, t2 = seat_round(stage, cup.entries)
    a, b, c, d, e, f, g, h = cup.entries
    finished_game(t1, [a, b, c, d], confirmed=True)
    finished_game(t2, [e, f, g, h], points=(4, 2, 1, 0), confirmed=True)
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(stage)

    # Totals: e 4, a 3, b 2, f 2, c 1, g 1 … b and f tie on 2 points and titles (富豪 each):
    # they share rank 3 and contend for the third place.
    assert cut.advancing == frozenset()
    assert set(cut.tied) == {b.pk, f.pk}
    assert cut.places_left == 1


def test_a_clean_cut_lists_who_advances(cup: Cup) -> None:
    stage = _stage(cup, advance_top_n=2)
    t1, t2 = seat_round(stage, cup.entries)
    a, b, c, d, e, f, g, h = cup.entries
    finished_game(t1, [a, b, c, d], confirmed=True)
    finished_game(t2, [e, f, g, h], points=(4, 2, 1, 0), confirmed=True)
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(stage)

    assert cut.advancing == {e.pk, a.pk}
    assert cut.line_after_rank == 2
    assert stage_ranking(stage).keys[e.pk] == -1.0  # what advance_stage cuts on: rank 1


def test_top_k_per_table_uses_each_tables_ranks(cup: Cup) -> None:
    stage = _stage(cup, advance_top_k_per_table=1)
    t1, t2 = seat_round(stage, cup.entries)
    a, b, c, d, e, f, g, h = cup.entries
    finished_game(t1, [b, a, c, d], confirmed=True)
    finished_game(t2, [h, g, f, e], confirmed=True)
    recompute_tournament(cup.tournament.pk)

    cut = cut_line(stage)

    assert cut.advancing == {b.pk, h.pk}
    assert cut.tied == ()


def test_a_stage_without_rule_has_no_cut(cup: Cup) -> None:
    assert not cut_line(cup.stage).has_rule
