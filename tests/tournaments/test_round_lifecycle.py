"""Drawing, redrawing, publishing and finishing rounds; check-in, drop and substitutes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import UserFactory, play_round_quickly
from tournaments import services
from tournaments.models import Entry, Round, Seat, Stage, StageEntrant, Tournament
from tournaments.seating import Constraints, Draw, DrawnTable, check_draw

from .conftest import checked_in

pytestmark = pytest.mark.django_db


def as_draw(round_: Round) -> Draw:
    return Draw(
        tuple(
            DrawnTable(t.number, tuple(s.entry_id for s in t.seats.order_by("position")))
            for t in round_.tables.order_by("number")
        )
    )


def test_the_first_round_is_a_random_draw_of_checked_in_entrants_only(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    playing = checked_in(tournament, 10)
    absent = checked_in(tournament, 1, start=50)[0]
    services.check_in_entry(absent, organiser, checked_in=False)

    round_ = services.draw_round(stage, organiser)

    assert round_.draw_method == "random"
    assert [t.seats.count() for t in round_.tables.order_by("number")] == [4, 3, 3]
    assert check_draw(as_draw(round_), Constraints(frozenset(e.pk for e in playing))) == []
    assert not Seat.objects.filter(entry=absent).exists()


def test_later_rounds_reseat_by_band_and_explain_each_table(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    checked_in(tournament, 16)
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)
    play_round_quickly(first, organiser, head_referee)
    services.reveal_round_seed(first, organiser)

    second = services.draw_round(stage, organiser)

    assert (second.number, second.draw_method) == (2, "score")
    assert all(t.explanation.startswith("Band ") for t in second.tables.all())
    met_before = {
        frozenset((a.entry_id, b.entry_id))
        for t in first.tables.all()
        for a in t.seats.all()
        for b in t.seats.all()
        if a.entry_id != b.entry_id
    }
    repeats = [
        (a.entry_id, b.entry_id)
        for t in second.tables.all()
        for a in t.seats.all()
        for b in t.seats.all()
        if a.entry_id < b.entry_id and frozenset((a.entry_id, b.entry_id)) in met_before
    ]
    assert repeats == []  # 16 players at 4 tables: a second round without repeats exists


def test_redrawing_replaces_the_unpublished_draft(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    draft = services.draw_round(stage, organiser)

    redraw = services.draw_round(stage, organiser)

    assert not Round.objects.filter(pk=draft.pk).exists()
    assert redraw.number == 1


def test_the_next_round_waits_for_the_published_one_to_complete(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    services.publish_round(services.draw_round(stage, organiser), organiser)

    with pytest.raises(services.DomainError, match="Round 1 of Qualifying is not complete") as e:
        services.draw_round(stage, organiser)
    assert e.value.code == "previous_round_not_complete"
    assert "完了していません" in e.value.message_ja


def test_publishing_starts_the_tournament_and_cannot_happen_twice(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)

    services.publish_round(round_, organiser)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(services.DomainError):
        services.publish_round(round_, organiser)


def test_too_few_players_is_the_organisers_error(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 2)

    with pytest.raises(services.DomainError, match="at least 3 players"):
        services.draw_round(stage, organiser)


def test_a_dropped_entrant_cannot_be_checked_in(tournament: Tournament, organiser: User) -> None:
    (entry,) = checked_in(tournament, 1)
    services.drop_entry(entry, organiser)

    with pytest.raises(services.DomainError, match="dropped"):
        services.check_in_entry(entry, organiser)


def test_a_substitute_takes_the_dropped_entrants_place_in_the_stage(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    (entry,) = checked_in(tournament, 1)
    StageEntrant.objects.create(stage=stage, entry=entry, source=StageEntrant.Source.ADVANCED)

    substitute = services.substitute_entry(entry, organiser, display_name="Kato Hina")

    entry.refresh_from_db()
    assert entry.status == Entry.Status.DROPPED
    assert substitute.substitute_for == entry
    assert substitute.status == Entry.Status.CHECKED_IN
    assert StageEntrant.objects.filter(stage=stage, entry=substitute).exists()
    with pytest.raises(services.DomainError, match="already has a substitute"):
        services.substitute_entry(entry, organiser, display_name="Another")


def test_creating_a_tournament_from_a_preset_pins_the_engine_ruleset() -> None:
    staff = UserFactory(username="staff", is_staff=True)

    cup = services.create_tournament_from_preset(
        actor=staff, name="Kobe Open", slug="kobe-open", ruleset="jdf@1"
    )

    assert (cup.ruleset_id, cup.ruleset_version, cup.status) == ("jdf", 1, "draft")
    assert (cup.games_per_set, cup.sets_per_round, cup.table_size) == (4, 3, 4)
    assert cup.points_table["places"]["4"] == [3, 2, 1, 0]
    assert cup.officials.get().user == staff
    assert cup.stages.get().kind == Stage.Kind.QUALIFYING


def test_an_unknown_ruleset_is_refused() -> None:
    staff = UserFactory(username="staff", is_staff=True)

    with pytest.raises(services.ValidationError):
        services.create_tournament_from_preset(
            actor=staff, name="X", slug="x", ruleset="no-such-rules@1"
        )


def test_only_staff_create_tournaments() -> None:
    with pytest.raises(services.PermissionDenied):
        services.create_tournament_from_preset(
            actor=UserFactory(username="nobody"), name="X", slug="x"
        )
