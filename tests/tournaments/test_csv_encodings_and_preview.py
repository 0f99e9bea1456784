"""The CSV import reads UTF-8 (with or without BOM) and Shift_JIS (CP932, what Japanese Excel
saves by default), says which it read, and shows a preview before anything is saved; the
import then creates exactly the previewed entrants (validated again, all or nothing)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments import services
from tournaments.models import AuditEntry, Player, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ROWS = (
    "number,display_name,name_kana,email\n"
    ",大富豪 太郎,だいふごう たろう,taro@example.org\n"
    ",革命 花子,,\n"
)


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (ROWS.encode("cp932"), "Shift_JIS (CP932)"),
        (ROWS.encode("utf-8-sig"), "UTF-8 (BOM)"),
        (ROWS.encode(), "UTF-8"),
    ],
)
def test_each_encoding_is_read_and_named(
    tournament: Tournament, organiser: User, data: bytes, encoding: str
) -> None:
    preview = services.preview_entries_csv(tournament, organiser, data)

    assert preview.encoding == encoding
    assert [(r.number, r.display_name, r.name_kana) for r in preview.rows] == [
        (1, "大富豪 太郎", "だいふごう たろう"),
        (2, "革命 花子", ""),
    ]
    assert not tournament.entries.exists()  # a preview saves nothing


def test_shift_jis_bytes_import_as_japanese_names(tournament: Tournament, organiser: User) -> None:
    entries = services.import_entries_csv(tournament, organiser, ROWS.encode("cp932"))

    assert [e.player.display_name for e in entries] == ["大富豪 太郎", "革命 花子"]
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ENTRY_ADDED)
    assert audit.data == {"csv": True, "encoding": "Shift_JIS (CP932)", "entries": [1, 2]}


def test_a_file_neither_utf8_nor_shift_jis_is_refused(
    tournament: Tournament, organiser: User
) -> None:
    with pytest.raises(services.CsvImportError) as caught:
        services.preview_entries_csv(tournament, organiser, b"display_name\n\x85\x40\n")

    assert [(e.row, e.column) for e in caught.value.errors] == [(0, "")]


def test_errors_carry_the_encoding_and_name_row_and_column(
    tournament: Tournament, organiser: User
) -> None:
    data = "display_name,email\n大富豪 太郎,not-mail\n,\u3000\n".encode("cp932")

    with pytest.raises(services.CsvImportError) as caught:
        services.preview_entries_csv(tournament, organiser, data)

    assert caught.value.encoding == "Shift_JIS (CP932)"
    assert [(e.row, e.column) for e in caught.value.errors] == [(2, "email")]


def test_the_preview_marks_returning_players_by_e_mail(
    tournament: Tournament, organiser: User
) -> None:
    taro = PlayerFactory(display_name="Daifugo Taro", email="taro@example.org")
    EntryFactory(tournament=TournamentFactory(), player=taro)

    preview = services.preview_entries_csv(tournament, organiser, ROWS)

    assert [(r.player_id, r.player_name) for r in preview.rows] == [
        (taro.pk, "Daifugo Taro"),
        (None, ""),
    ]
    assert preview.returning == 1


def test_the_import_creates_exactly_the_preview_or_asks_for_a_new_one(
    tournament: Tournament, organiser: User
) -> None:
    preview = services.preview_entries_csv(tournament, organiser, ROWS)
    token = services.sign_csv_preview(tournament, preview)
    services.add_walk_in(tournament, organiser, display_name="Walk In")  # takes number 1

    with pytest.raises(services.DomainError) as outdated:
        services.import_previewed_csv(tournament, organiser, token)
    with pytest.raises(services.DomainError) as forged:
        services.import_previewed_csv(tournament, organiser, token[:-2] + "xx")

    assert (outdated.value.code, forged.value.code) == ("preview_outdated", "preview_invalid")
    assert tournament.entries.count() == 1
    fresh = services.preview_entries_csv(tournament, organiser, ROWS)
    entries = services.import_previewed_csv(
        tournament, organiser, services.sign_csv_preview(tournament, fresh)
    )
    assert [(e.number, e.player.display_name) for e in entries] == [
        (2, "大富豪 太郎"),
        (3, "革命 花子"),
    ]


def test_a_preview_of_one_tournament_does_not_import_into_another(
    tournament: Tournament, organiser: User
) -> None:
    other = TournamentFactory(slug="other")
    other.officials.create(user=organiser, role="organiser")
    token = services.sign_csv_preview(
        tournament, services.preview_entries_csv(tournament, organiser, ROWS)
    )

    with pytest.raises(services.DomainError) as refused:
        services.import_previewed_csv(other, organiser, token)
    assert refused.value.code == "preview_invalid"


@pytest.fixture
def logged_in(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("entrants.csv", data, content_type="text/csv")


def test_the_page_previews_then_imports_with_htmx(
    logged_in: Client, tournament: Tournament
) -> None:
    preview = logged_in.post(
        "/organiser/nagoya-open/import/preview/", {"file": upload(ROWS.encode("cp932"))}, **HTMX
    )

    page = preview.content.decode()
    assert preview.status_code == 200
    assert page.lstrip().startswith('<section id="entries">')
    assert "Shift_JIS (CP932)" in page and "大富豪 太郎" in page
    assert "Import 2 entrants</button>" in page
    assert not tournament.entries.exists()
    token = re.search(r'name="preview" value="([^"]+)"', page)
    assert token is not None

    done = logged_in.post("/organiser/nagoya-open/import/", {"preview": token[1]}, **HTMX)

    assert done.status_code == 200
    assert "Imported 2 entrants." in done.content.decode()
    assert sorted(tournament.entries.values_list("player__display_name", flat=True)) == [
        "大富豪 太郎",
        "革命 花子",
    ]


def test_errors_come_back_as_the_section_with_a_table_and_status_422(
    logged_in: Client, tournament: Tournament
) -> None:
    data = "number,display_name\nx,大富豪 太郎\n".encode("cp932")

    response = logged_in.post(
        "/organiser/nagoya-open/import/preview/", {"file": upload(data)}, **HTMX
    )

    page = response.content.decode()
    assert response.status_code == 422
    assert page.lstrip().startswith('<section id="entries">')  # the form's hx-target
    assert "Nothing was imported" in page and "Shift_JIS (CP932)" in page
    assert "&#x27;x&#x27; is not a whole number of 1 or more." in page
    assert not Player.objects.exists()


def test_a_forged_preview_is_refused_in_the_page(logged_in: Client, tournament: Tournament) -> None:
    response = logged_in.post("/organiser/nagoya-open/import/", {"preview": "forged"}, **HTMX)

    assert response.status_code == 422
    assert "upload the file again" in response.content.decode()
    assert not tournament.entries.exists()


def test_the_import_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    client_ja.force_login(organiser)

    preview = client_ja.post(
        "/organiser/nagoya-open/import/preview/", {"file": upload(ROWS.encode("cp932"))}, **HTMX
    ).content.decode()
    wrong = client_ja.post(
        "/organiser/nagoya-open/import/preview/",
        {"file": upload("number,display_name\nx,大富豪 太郎\n".encode("cp932"))},
        **HTMX,
    ).content.decode()

    assert "2名を取り込む</button>" in preview and "取り込むまで何も保存されません。" in preview
    assert "Import 2 entrants" not in preview and "Nothing is saved" not in preview
    assert "取り込みは行われていません" in wrong and "番号は1以上の整数です。" in wrong
    assert "Nothing was imported" not in wrong and "is not a whole number" not in wrong
