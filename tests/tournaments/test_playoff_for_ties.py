"""A tie at a cut is broken by a playoff table (順位決定戦) of the tied entrants: its placings
give the tie-break order, and its games never count in the tied stage's totals."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring.standings import ScopeRef, recompute_scope, standings
from tests.factories import StageFactory, finished_game, play_round_quickly
from tests.scoring.conftest import seat_round
from tournaments import services
from tournaments.advancement import AdvancementTie
from tournaments.models import AuditEntry, Seat, Stage, StageEntrant, Tournament
from tournaments.ranking import confirmed_stage_totals, stage_ranking
from tournaments.selectors import first_stage, next_stage, stage_participants, stage_totals

from .conftest import checked_in
from .stage_scenarios import by_seat, play_stage, quick_format, tied_qualifying

pytestmark = pytest.mark.django_db


def test_a_cut_with_a_tie_is_settled_by_a_playoff(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)
    tied = seats[2]
    keys_before = dict(stage_ranking(stage).keys)
    points_before = dict(stage_ranking(stage).points)
    with pytest.raises(AdvancementTie):
        services.advance_stage(stage, organiser, keys_before)

    playoff = services.create_playoff(stage, organiser, [e.pk for e in tied])

    assert (playoff.kind, playoff.playoff_for, playoff.order) == (Stage.Kind.PLAYOFF, stage, 3)
    assert next_stage(stage) is not None and next_stage(stage).kind == Stage.Kind.FINAL
    assert next_stage(playoff) is None and first_stage(tournament) == stage
    assert {e.pk for e in stage_participants(playoff)} == {e.pk for e in tied}
    assert StageEntrant.objects.filter(stage=playoff).first().note.startswith("tied in")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PLAYOFF_CREATED).exists()
    assert services.playoff_order(stage) == []  # nothing until the playoff is played

    round_ = services.draw_round(playoff, organiser)
    assert [t.seats.count() for t in round_.tables.all()] == [3]  # one table of the tied
    services.publish_round(round_, organiser)
    play_round_quickly(round_, organiser, head_referee)
    services.reveal_round_seed(round_, organiser)
    winner = Seat.objects.get(round=round_, position=1).entry

    # The playoff's games do not count in the tied stage's totals or standings.
    assert dict(stage_ranking(stage).points) == points_before
    assert stage_totals(stage) == confirmed_stage_totals(stage)
    assert services.playoff_order(stage)[0] == (winner.pk,)

    places = services.advance_stage(
        stage, organiser, stage_ranking(stage).keys, tie_break=services.playoff_order(stage)
    )

    advanced = {p.entry_id for p in places}
    assert advanced == {e.pk for e in seats[1]} | {winner.pk}


def test_a_playoff_needs_three_tied_entrants_of_a_finished_stage(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)

    for entries, code in (
        (seats[2][:2], "playoff_too_small"),
        (seats[1][:1] + seats[2][:2], "playoff_not_tied"),
    ):
        with pytest.raises(services.DomainError) as error:
            services.create_playoff(stage, organiser, [e.pk for e in entries])
        assert error.value.code == code
    services.create_playoff(stage, organiser, [e.pk for e in seats[2]])
    with pytest.raises(services.DomainError) as error:
        services.create_playoff(stage, organiser, [e.pk for e in seats[3]])
    assert error.value.code == "playoff_open"


def test_carried_over_totals_and_standings_leave_playoffs_out(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    """A stage after a playoff that carries totals over counts the earlier main stages only."""
    entries = checked_in(tournament, 4)

    (qualifying_table,) = seat_round(stage, entries)
    finished_game(qualifying_table, entries, confirmed=True)
    playoff = StageFactory(
        tournament=tournament, order=2, kind=Stage.Kind.PLAYOFF, playoff_for=stage
    )
    for entry in entries:
        StageEntrant.objects.create(stage=playoff, entry=entry, source="advanced")
    (playoff_table,) = seat_round(playoff, entries)
    finished_game(playoff_table, list(reversed(entries)), points=(30, 20, 10, 0), confirmed=True)
    later = StageFactory(
        tournament=tournament, order=3, kind=Stage.Kind.CUT, carry_over_totals=True
    )
    for entry in entries:
        StageEntrant.objects.create(stage=later, entry=entry, source="advanced")

    expected = {entries[0].pk: 3, entries[1].pk: 2, entries[2].pk: 1, entries[3].pk: 0}
    assert stage_totals(later) == expected
    assert confirmed_stage_totals(later) == expected
    recompute_scope(ScopeRef.stage(later.pk))
    assert {r.entry_id: r.points for r in standings(ScopeRef.stage(later.pk))} == expected
    recompute_scope(ScopeRef.stage(stage.pk))
    assert {r.entry_id: r.points for r in standings(ScopeRef.stage(stage.pk))} == expected
    tournament_scope = ScopeRef.tournament(tournament.pk)
    recompute_scope(tournament_scope)
    assert {r.entry_id: r.points for r in standings(tournament_scope)} == expected


def test_a_playoff_places_entrants_tied_in_the_final(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    """The last stage has no rule: its preview gives the final places, a playoff among those
    level ordering them."""
    quick_format(tournament)
    checked_in(tournament, 12)
    seats = by_seat(play_stage(stage, organiser, head_referee))
    before = services.preview_advancement(stage, organiser)
    assert before.final_places
    assert sorted(before.ties[0].numbers) == sorted(e.number for e in seats[1])

    playoff = services.create_playoff(stage, organiser, [e.pk for e in seats[1]])
    winner = Seat.objects.get(round=play_stage(playoff, organiser, head_referee), position=1)

    after = services.preview_advancement(stage, organiser)
    places = {row.entry.pk: (row.place, row.playoff) for row in after.rows}
    assert places[winner.entry_id] == (1, True)
    assert sorted(places[e.pk][0] for e in seats[1]) == [1, 2, 3]
    assert len(after.ties) == 3  # the seat-2, -3 and -4 groups are still level
