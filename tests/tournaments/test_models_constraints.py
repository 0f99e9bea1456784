"""The database itself refuses rows that would break the tournament's invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from tests.factories import (
    EntryFactory,
    OfficialFactory,
    RoundFactory,
    SeatFactory,
    StageFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import Official, Round, Stage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("size", [2, 6])
def test_tables_hold_three_to_five_players(size: int) -> None:
    with pytest.raises(IntegrityError):
        TournamentFactory(table_size=size)


def test_a_points_table_must_have_places() -> None:
    with pytest.raises(IntegrityError):
        TournamentFactory(points_table={"preset": "none"})


def test_a_set_has_at_least_one_game() -> None:
    with pytest.raises(IntegrityError):
        TournamentFactory(games_per_set=0)


def test_a_user_holds_each_role_once_per_tournament() -> None:
    official = OfficialFactory(role=Official.Role.REFEREE)

    with pytest.raises(IntegrityError):
        OfficialFactory(tournament=official.tournament, user=official.user, role="referee")


def test_an_unknown_role_is_refused() -> None:
    with pytest.raises(IntegrityError):
        OfficialFactory(role="spectator")


def test_stage_order_is_unique_within_a_tournament() -> None:
    stage = StageFactory(order=1)

    with pytest.raises(IntegrityError):
        StageFactory(tournament=stage.tournament, order=1)


def test_nobody_advances_out_of_a_final() -> None:
    with pytest.raises(IntegrityError):
        StageFactory(kind=Stage.Kind.FINAL, advance_top_n=4)


def test_round_numbers_are_unique_within_a_stage() -> None:
    round_ = RoundFactory(number=1)

    with pytest.raises(IntegrityError):
        RoundFactory(stage=round_.stage, number=1)


def test_a_round_has_exactly_one_64_hex_digit_seed_commitment() -> None:
    with pytest.raises(IntegrityError):
        RoundFactory(seed_commitment="not-a-hash")


def test_a_revealed_round_records_when_it_was_completed_and_revealed() -> None:
    with pytest.raises(IntegrityError):
        RoundFactory(status=Round.Status.REVEALED, published_at="2026-01-01T10:00Z")


def test_a_seed_reveal_time_means_the_round_is_revealed() -> None:
    with pytest.raises(IntegrityError):
        RoundFactory(
            status=Round.Status.IN_PLAY,
            published_at="2026-01-01T10:00Z",
            revealed_at="2026-01-01T12:00Z",
        )


def test_only_a_revealed_round_can_be_closed() -> None:
    with pytest.raises(IntegrityError):
        RoundFactory(
            status=Round.Status.COMPLETE,
            published_at="2026-01-01T10:00Z",
            completed_at="2026-01-01T11:00Z",
            closed_at="2026-01-01T12:00Z",
        )


def test_a_published_round_records_when() -> None:
    with pytest.raises(IntegrityError):
        RoundFactory(status=Round.Status.PUBLISHED, published_at=None)


def test_table_numbers_are_unique_within_a_round() -> None:
    table = TableFactory(number=3)

    with pytest.raises(IntegrityError):
        TableFactory(round=table.round, number=3)


def test_a_seat_position_is_taken_once_per_table() -> None:
    seat = SeatFactory(position=1)

    with pytest.raises(IntegrityError):
        SeatFactory(table=seat.table, position=1)


def test_an_entry_is_seated_once_per_round() -> None:
    seat = SeatFactory(position=1)
    other_table = TableFactory(round=seat.table.round)

    with pytest.raises(IntegrityError):
        SeatFactory(table=other_table, entry=seat.entry, position=1)


def test_seat_positions_run_from_one_to_five() -> None:
    with pytest.raises(IntegrityError):
        SeatFactory(position=6)


def test_a_seat_takes_its_round_from_its_table() -> None:
    seat = SeatFactory()

    assert seat.round_id == seat.table.round_id


def test_an_entry_cannot_substitute_for_itself() -> None:
    entry = EntryFactory()
    entry.substitute_for_id = entry.pk

    with pytest.raises(IntegrityError):
        entry.save()
