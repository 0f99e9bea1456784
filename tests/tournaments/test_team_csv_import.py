"""Importing pairs from CSV in a team event: a `team` column (or `チーム`) whose rows naming
the same team form it; the preview shows the teams; a team of other than two rows, or a name
already taken by a team with members, is refused per row in English and Japanese, and
nothing is saved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import (
    OfficialFactory,
    TournamentFactory,
    checked_in_teams,
)
from tournaments import services
from tournaments.models import AuditEntry, Entry, Official, Team, Tournament
from tournaments.services import CsvImportError

pytestmark = pytest.mark.django_db


PAIRS = (
    "display_name,name_kana,team\n"
    "山田 花子,やまだ はなこ,桜\n"
    "佐藤 健,さとう けん,桜\n"
    "Li Wei,,Fuji\n"
    "Chen Jing,,Fuji\n"
)


def test_rows_naming_a_team_form_it(event: Tournament, organiser: User) -> None:
    preview = services.preview_entries_csv(event, organiser, PAIRS)
    assert [(t.name, t.number, t.lines) for t in preview.teams] == [
        ("桜", 1, (2, 3)),
        ("Fuji", 2, (4, 5)),
    ]

    entries = services.import_previewed_csv(
        event, organiser, services.sign_csv_preview(event, preview)
    )

    assert len(entries) == 4
    sakura = Team.objects.get(tournament=event, name="桜")
    assert sorted(sakura.members.values_list("player__display_name", flat=True)) == [
        "佐藤 健",
        "山田 花子",
    ]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TEAM_REGISTERED).count() == 2


def test_the_japanese_header_names_the_team_column(event: Tournament, organiser: User) -> None:
    text = "display_name,チーム\nA,Kaze\nB,Kaze\nC,\n".encode("cp932")

    entries = services.import_entries_csv(event, organiser, text)

    assert [e.team.name if e.team else None for e in entries] == ["Kaze", "Kaze", None]


def test_a_team_of_other_than_two_rows_is_refused_per_row(
    event: Tournament, organiser: User
) -> None:
    text = "display_name,team\nA,Umi\nB,Umi\nC,Umi\nD,Yama\n"

    with pytest.raises(CsvImportError) as refused:
        services.preview_entries_csv(event, organiser, text)

    errors = refused.value.errors
    assert [(e.row, e.column) for e in errors] == [
        (2, "team"),
        (3, "team"),
        (4, "team"),
        (5, "team"),
    ]
    assert "has 3 member(s) (rows 2, 3, 4)" in errors[0].message_en
    assert "ちょうど2人" in errors[0].message_ja
    assert not Entry.objects.exists() and not Team.objects.exists()


def test_a_team_name_already_taken_is_refused(event: Tournament, organiser: User) -> None:
    checked_in_teams(event, 1)  # Team 1 Sakura

    with pytest.raises(CsvImportError) as refused:
        services.import_entries_csv(event, organiser, "display_name,team\nX,Sakura\nY,Sakura\n")

    assert {(e.row, e.column) for e in refused.value.errors} == {(2, "team"), (3, "team")}
    assert "既にメンバーがいます" in refused.value.errors[0].message_ja
    assert Team.objects.count() == 1 and Entry.objects.count() == 2


def test_a_daifugo_tournament_refuses_a_team_column_with_teams(organiser: User) -> None:
    daifugo = TournamentFactory()
    OfficialFactory(tournament=daifugo, user=organiser, role=Official.Role.ORGANISER)
    with pytest.raises(CsvImportError) as refused:
        services.import_entries_csv(daifugo, organiser, "display_name,team\nA,X\nB,X\n")
    assert refused.value.errors[0].column == "team"
    # An empty team column is harmless.
    assert len(services.import_entries_csv(daifugo, organiser, "display_name,team\nA,\n")) == 1


def test_the_preview_lists_the_teams_and_a_bad_team_in_japanese(
    client: Client, event: Tournament, organiser: User
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(organiser)
    url = f"/organiser/{event.slug}/import/preview/"
    page = client.post(
        url, {"file": SimpleUploadedFile("pairs.csv", PAIRS.encode())}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-testid="csv-teams"' in body and "桜" in body and "Fuji" in body

    bad = client.post(
        url,
        {"file": SimpleUploadedFile("bad.csv", b"display_name,team\nA,Umi\n")},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert bad.status_code == 422
    assert "チーム「Umi」のメンバーが1人です" in bad.content.decode()
