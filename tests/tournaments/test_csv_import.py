"""Importing entrants from CSV: documented columns, every error by row and column, and
all-or-nothing (a file with any error saves nothing)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, Player, Tournament
from tournaments.services import CsvImportError, import_entries_csv

pytestmark = pytest.mark.django_db


def errors_of(tournament: Tournament, organiser: User, text: str | bytes) -> list[tuple[int, str]]:
    with pytest.raises(CsvImportError) as caught:
        import_entries_csv(tournament, organiser, text)
    return [(e.row, e.column) for e in caught.value.errors]


def test_rows_become_entries_with_their_numbers_and_kana(
    tournament: Tournament, organiser: User
) -> None:
    csv = "number,display_name,name_kana,email\n7,Aoki Haruto,あおき はると,aoki@example.org\n"

    (entry,) = import_entries_csv(tournament, organiser, csv)

    assert (entry.number, entry.player.display_name, entry.player.name_kana) == (
        7, "Aoki Haruto", "あおき はると",
    )  # fmt: skip
    assert entry.status == Entry.Status.REGISTERED


def test_a_utf8_bom_from_excel_is_tolerated(tournament: Tournament, organiser: User) -> None:
    data = "\ufeffdisplay_name,name_kana\n石川 結衣,いしかわ ゆい\n".encode()

    (entry,) = import_entries_csv(tournament, organiser, data)

    assert entry.player.display_name == "石川 結衣"


def test_blank_numbers_take_the_next_free_numbers_in_row_order(
    tournament: Tournament, organiser: User
) -> None:
    EntryFactory(tournament=tournament, number=3)

    entries = import_entries_csv(tournament, organiser, "number,display_name\n,A\n10,B\n,C\n")

    assert [(e.player.display_name, e.number) for e in entries] == [("A", 11), ("B", 10), ("C", 12)]


def test_every_problem_is_reported_by_row_and_column_and_nothing_is_saved(
    tournament: Tournament, organiser: User
) -> None:
    EntryFactory(tournament=tournament, number=5)
    csv = (
        "number,display_name,email\n"
        "1,Good Row,good@example.org\n"  # row 2 is fine …
        "x,No Number,\n"  # row 3: not a number
        "5,Taken,\n"  # row 4: number used in the tournament
        ",,\n"  # row 5: blank line, ignored
        "1,Duplicate Number,\n"  # row 6: number also on row 2
        "2,,\n"  # row 7: name missing
        "3,Bad Mail,not-an-email\n"  # row 8
        "4,Same Mail,GOOD@example.org\n"  # row 9: e-mail also on row 2
    )
    players_before = Player.objects.count()

    errors = errors_of(tournament, organiser, csv)

    assert errors == [
        (3, "number"),
        (4, "number"),
        (6, "number"),
        (7, "display_name"),
        (8, "email"),
        (9, "email"),
    ]
    assert tournament.entries.count() == 1  # only the entry that was there before
    assert Player.objects.count() == players_before  # … and row 2 was not half-imported


def test_error_messages_are_in_english_with_a_japanese_label(
    tournament: Tournament, organiser: User
) -> None:
    with pytest.raises(CsvImportError) as caught:
        import_entries_csv(tournament, organiser, "display_name\n\n   \n")

    # An all-blank file has no entrant rows.
    assert caught.value.errors[0].message_en == "No entrant rows below the header."
    assert caught.value.errors[0].message_ja


def test_the_header_is_required_and_checked(tournament: Tournament, organiser: User) -> None:
    assert errors_of(tournament, organiser, "name,kana\nAoki,あおき\n") == [
        (1, "name, kana"),  # unknown columns
        (1, "display_name"),  # the required column is missing
    ]


def test_an_empty_file_is_an_error(tournament: Tournament, organiser: User) -> None:
    assert errors_of(tournament, organiser, "") == [(1, "")]


def test_a_row_with_more_fields_than_columns_is_reported(
    tournament: Tournament, organiser: User
) -> None:
    assert errors_of(tournament, organiser, "display_name\nAoki,extra\n") == [(2, "")]


def test_a_returning_player_is_recognised_by_email(tournament: Tournament, organiser: User) -> None:
    known = PlayerFactory(display_name="Aoki", email="aoki@example.org")

    (entry,) = import_entries_csv(
        tournament, organiser, "display_name,email\nAoki H,aoki@example.org\n"
    )

    assert entry.player == known


def test_a_player_who_already_entered_is_reported(tournament: Tournament, organiser: User) -> None:
    known = PlayerFactory(display_name="Aoki", email="aoki@example.org")
    EntryFactory(tournament=tournament, player=known)

    assert errors_of(tournament, organiser, "display_name,email\nAoki,aoki@example.org\n") == [
        (2, "email")
    ]


def test_only_an_organiser_of_the_tournament_may_import(organiser: User) -> None:
    other = TournamentFactory()

    with pytest.raises(PermissionDenied):
        import_entries_csv(other, organiser, "display_name\nAoki\n")
    assert not other.entries.exists()
