"""Advancement: top N by total, top K per table, seeded entrants; ties are never broken silently."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameResult
from tests.factories import EntryFactory, StageFactory, play_round_quickly
from tournaments import services
from tournaments.advancement import AdvancementTie, Reason, Rule, select_advancing
from tournaments.models import Entry, Round, Stage, StageEntrant, Tournament
from tournaments.selectors import stage_participants, stage_totals

from .conftest import checked_in

TOTALS = {1: 30, 2: 25, 3: 25, 4: 10, 5: 40, 6: 5, 7: 20, 8: 15}


def test_top_n_by_total_points() -> None:
    outcome = select_advancing(TOTALS, Rule(top_n=2))

    assert outcome.advancing == (5, 1)
    assert outcome.reasons[5] == Reason(top=2, total=40)
    assert str(outcome.reasons[5]) == "top 2 by total points (total 40)"


def test_a_tie_across_the_cut_line_must_be_ordered_explicitly() -> None:
    with pytest.raises(AdvancementTie) as tie:
        select_advancing(TOTALS, Rule(top_n=3))  # 2 and 3 tie on 25 for the third place

    assert tie.value.tied == (2, 3)
    assert tie.value.places_left == 1


def test_a_tie_break_order_from_a_playoff_or_lot_settles_the_cut() -> None:
    outcome = select_advancing(TOTALS, Rule(top_n=3), tie_break=[3, 2])

    assert outcome.advancing == (5, 1, 3)


def test_a_tie_entirely_inside_the_cut_needs_no_tie_break() -> None:
    assert set(select_advancing(TOTALS, Rule(top_n=4)).advancing) == {5, 1, 2, 3}


def test_top_k_per_table_qualify_first_then_the_best_totals_fill_up_to_n() -> None:
    tables = {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]}

    per_table = select_advancing(TOTALS, Rule(top_k_per_table=1), tables=tables)
    combined = select_advancing(TOTALS, Rule(top_n=4, top_k_per_table=1), tables=tables)

    assert per_table.advancing == (1, 5)  # table winners, even 1 with less than 5
    assert per_table.reasons[1] == Reason(top=1, total=30, table=1)
    assert str(per_table.reasons[1]) == "top 1 at table 1 (total 30)"
    assert combined.advancing[:2] == (1, 5)
    assert set(combined.advancing[2:]) == {2, 3}  # 25 each: both fit in the two places left


def test_a_tie_inside_one_table_must_be_ordered_too() -> None:
    with pytest.raises(AdvancementTie, match="at table 1"):
        select_advancing(TOTALS, Rule(top_k_per_table=2), tables={1: [1, 2, 3, 4]})


@pytest.mark.django_db
class TestAdvanceStageService:
    @pytest.fixture
    def played(
        self, tournament: Tournament, stage: Stage, organiser: User, head_referee: User
    ) -> Stage:
        stage.advance_top_n = 4
        stage.save()
        checked_in(tournament, 8)
        round_ = services.draw_round(stage, organiser)
        services.publish_round(round_, organiser)
        play_round_quickly(round_, organiser, head_referee)
        services.reveal_round_seed(round_, organiser)
        return stage

    def test_qualifiers_and_seeded_entrants_join_the_next_stage(
        self, tournament: Tournament, organiser: User, played: Stage
    ) -> None:
        final = StageFactory(tournament=tournament, order=2, kind=Stage.Kind.FINAL)
        seeded = EntryFactory(
            tournament=tournament, number=99, status=Entry.Status.CHECKED_IN, seeded_into=final
        )
        entries = {e.number: e.pk for e in tournament.entries.all()}
        totals = {entries[n]: 10 * n for n in range(1, 9)}  # entrant 8 leads with 80

        services.advance_stage(played, organiser, totals)

        places = StageEntrant.objects.filter(stage=final)
        assert sorted(p.entry.number for p in places) == [5, 6, 7, 8, 99]
        assert places.get(entry=seeded).source == StageEntrant.Source.SEEDED
        assert [e.number for e in stage_participants(final)] == [5, 6, 7, 8, 99]
        assert seeded not in stage_participants(played)  # seeded entrants skip the first stage

    def test_a_stage_advances_once_and_only_when_its_rounds_are_finished(
        self, tournament: Tournament, organiser: User, played: Stage
    ) -> None:
        StageFactory(tournament=tournament, order=2, kind=Stage.Kind.FINAL)
        totals = {e.pk: e.number for e in tournament.entries.all()}
        services.advance_stage(played, organiser, totals)

        with pytest.raises(services.DomainError, match="already advanced"):
            services.advance_stage(played, organiser, totals)

    def test_an_unfinished_round_blocks_advancement(
        self, tournament: Tournament, organiser: User, played: Stage
    ) -> None:
        StageFactory(tournament=tournament, order=2, kind=Stage.Kind.FINAL)
        services.draw_round(played, organiser)

        with pytest.raises(services.DomainError, match="must be complete"):
            services.advance_stage(played, organiser, {})
        assert Round.objects.filter(stage=played, status=Round.Status.DRAFT).exists()

    def test_the_last_stage_has_nowhere_to_advance(self, organiser: User, played: Stage) -> None:
        with pytest.raises(services.DomainError, match="last stage"):
            services.advance_stage(played, organiser, {})

    def test_totals_add_up_every_result_of_the_stage(self, played: Stage) -> None:
        results = GameResult.objects.filter(game__table__round__stage=played)
        totals = stage_totals(played)
        for entry_id, total in totals.items():
            assert total == sum(r.points for r in results.filter(entry_id=entry_id))
        assert sum(totals.values()) > 0
