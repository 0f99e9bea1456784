"""An entrant list saved by Japanese Excel imports with every name intact: "CSV UTF-8"
(a BOM, CRLF lines) and plain "CSV" (Windows' Shift_JIS, CP932, CRLF lines) — CP932's own
characters (髙, ①, ㈱, which JIS Shift_JIS lacks) included — and a file in neither encoding is
refused with a clear error, nothing saved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LINES = ["display_name,name_kana", "髙橋 一郎,たかはし いちろう", "①番 ㈱革命,", "佐藤 花子,さとう"]
SAVED_BY_EXCEL = {
    "CSV UTF-8": ("\ufeff" + "\r\n".join(LINES) + "\r\n").encode("utf-8"),
    "CSV": ("\r\n".join(LINES) + "\r\n").encode("cp932"),
}


@pytest.mark.parametrize("saved_as", SAVED_BY_EXCEL)
def test_the_names_come_back_as_they_were_written(
    tournament: Tournament, organiser: User, saved_as: str
) -> None:
    entries = services.import_entries_csv(tournament, organiser, SAVED_BY_EXCEL[saved_as])

    assert [(e.player.display_name, e.player.name_kana) for e in entries] == [
        ("髙橋 一郎", "たかはし いちろう"),
        ("①番 ㈱革命", ""),
        ("佐藤 花子", "さとう"),
    ]


NOT_CSV = {
    # Bytes CP932 only reads as private-use characters (0xFD–0xFF, the 外字 area).
    "stray bytes": SAVED_BY_EXCEL["CSV"] + b"\xff\xfe\r\n",
    "user-defined character": "display_name\r\n\ue000\r\n".encode("cp932"),
    # Excel's "Unicode テキスト": UTF-16 with tabs, not a CSV.
    "UTF-16 text": "\ufeffdisplay_name\r\n髙橋 一郎\r\n".encode("utf-16-le"),
}


@pytest.mark.parametrize("saved_as", NOT_CSV)
def test_bytes_in_neither_encoding_are_refused_and_nothing_is_saved(
    tournament: Tournament, organiser: User, saved_as: str
) -> None:
    data = NOT_CSV[saved_as]

    with pytest.raises(services.CsvImportError) as refused:
        services.import_entries_csv(tournament, organiser, data)

    (error,) = refused.value.errors
    assert refused.value.code == "csv_invalid"
    assert "neither UTF-8 nor Shift_JIS" in error.message_en
    assert "UTF-8 でも Shift_JIS でもありません" in error.message_ja
    assert not tournament.entries.exists()
