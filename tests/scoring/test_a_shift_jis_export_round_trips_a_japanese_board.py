"""`?encoding=cp932` (also `shift_jis`, `sjis`, `Shift-JIS`, `windows-31j`) writes the
standings as Windows' Shift_JIS for tools that read nothing else: no BOM, CRLF lines,
`charset=Shift_JIS`, and the bytes decode as CP932 to exactly the cells of the UTF-8 file —
Japanese headers and names, CP932's own characters (髙, ①, ★) included."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.models import Standing
from tests.factories import TournamentFactory, browser, standings_field
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = ["佐藤 花子", "髙橋 一郎", "①番 ★ 田中", "=SUM(A1)"]


@pytest.fixture
def board() -> Tournament:
    tournament = TournamentFactory(slug="osaka-cup", status=Tournament.Status.RUNNING)
    for entry, name in zip(standings_field(tournament, 4), NAMES, strict=True):
        entry.player.display_name = name
        entry.player.save()
    # Entrants 1 and 2 level on everything: they share first place.
    Standing.objects.filter(entry__number__in=[1, 2]).update(rank=1, shared=True)
    return tournament


def cells(data: bytes, codec: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(codec), newline="")))


@pytest.mark.parametrize("name", ["cp932", "shift_jis", "sjis", "Shift-JIS", "windows-31j"])
def test_the_shift_jis_file_holds_the_same_cells_as_the_utf8_one(
    board: Tournament, name: str
) -> None:
    reader = browser("ja")
    utf8 = reader.get("/standings/osaka-cup/standings.csv")
    sjis = reader.get(f"/standings/osaka-cup/standings.csv?encoding={name}")

    assert (sjis.status_code, sjis["Content-Type"]) == (200, "text/csv; charset=Shift_JIS")
    assert not sjis.content.startswith(b"\xef\xbb\xbf")
    assert sjis.content.count(b"\n") == sjis.content.count(b"\r\n") == 5
    assert cells(sjis.content, "cp932") == cells(utf8.content, "utf-8-sig")


def test_the_japanese_board_reads_back_in_japanese(board: Tournament) -> None:
    data = browser("ja").get("/standings/osaka-cup/standings.csv?encoding=cp932").content

    header, *rows = cells(data, "cp932")

    assert header[:4] == ["順位", "同順位", "参加番号", "選手"]
    assert header[-2:] == ["順位決定戦で決定", "到達ステージ"]
    shown = [(r[0], r[1], r[3]) for r in rows]
    assert sorted(shown[:2]) == [("1", "はい", "佐藤 花子"), ("1", "はい", "髙橋 一郎")]
    assert shown[2:] == [
        ("3", "いいえ", "①番 ★ 田中"),
        ("4", "いいえ", "'=SUM(A1)"),  # never a formula, whatever the encoding
    ]
