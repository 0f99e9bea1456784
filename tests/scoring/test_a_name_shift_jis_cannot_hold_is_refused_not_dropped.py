"""A Shift_JIS (`?encoding=cp932`) download of a board with a name CP932 cannot hold — 𠮷 (a
character outside JIS X 0208), an emoji, a card suit ♠ (JIS X 0213, not CP932), or 〜 WAVE
DASH (which CP932 would read back as ～, another character) — is refused with 422
`csv_encoding_unrepresentable` naming the character, its row and the cell, in English and
Japanese, rather than written with the character dropped or replaced; the UTF-8 download
(offered on the refusal page) still holds the name as it is."""

from __future__ import annotations

import csv
import io

import pytest

from tests.factories import TournamentFactory, browser, standings_field
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/standings/kyoto-open/standings.csv"


def board(name: str) -> Tournament:
    """Three entrants; entry 2 (ranked 2: row 3 of the file, under the header) is `name`."""
    tournament = TournamentFactory(slug="kyoto-open", status=Tournament.Status.RUNNING)
    entry = standings_field(tournament, 3)[1]
    entry.player.display_name = name
    entry.player.save()
    return tournament


@pytest.mark.parametrize(
    ("name", "character", "codepoint"),
    [
        ("𠮷田 太郎", "𠮷", "U+20BB7"),
        ("Aoki 😀", "😀", "U+1F600"),
        ("♠エース", "♠", "U+2660"),
        ("さくら〜", "〜", "U+301C"),
    ],
)
def test_the_refusal_names_the_character_the_row_and_the_name(
    name: str, character: str, codepoint: str
) -> None:
    board(name)

    answer = browser("en").get(f"{URL}?encoding=cp932")

    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "csv_encoding_unrepresentable"
    for message in (body["message_en"], body["message_ja"]):
        assert f"“{character}”" in message or f"「{character}」" in message
        assert codepoint in message and name in message
    assert "row 3 (player:" in body["message_en"]
    assert "3行目（player：" in body["message_ja"]
    assert "UTF-8" in body["message_en"] and "UTF-8" in body["message_ja"]
    assert body["detail"] == {
        "encoding": "cp932",
        "count": 1,
        "cells": [{"row": 3, "column": "player", "value": name, "characters": [character]}],
    }


def test_the_utf8_download_keeps_the_name_as_it_is() -> None:
    board("𠮷田 太郎")
    reader = browser("ja")
    assert reader.get(f"{URL}?encoding=cp932").status_code == 422

    answer = reader.get(URL)

    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert answer.status_code == 200
    assert [row[3] for row in rows[1:]] == ["Entrant 001", "𠮷田 太郎", "Entrant 003"]


def test_a_browser_gets_a_page_in_its_language_offering_the_utf8_file() -> None:
    board("𠮷田 太郎")

    page = browser("ja").get(f"{URL}?encoding=sjis", headers={"Accept": "text/html"})

    html = page.content.decode()
    assert page.status_code == 422 and page["Content-Type"].startswith("text/html")
    assert 'data-code="csv_encoding_unrepresentable"' in html
    assert "3行目（選手：「𠮷田 太郎」）の文字「𠮷」（U+20BB7）はShift_JISにありません" in html
    assert f'href="{URL}" data-testid="utf8-download"' in html
    assert "UTF-8のCSV（Excel用）をダウンロード" in html


def test_every_cell_it_cannot_hold_is_counted() -> None:
    tournament = board("𠮷田 太郎")
    third = tournament.entries.get(number=3).player
    third.display_name = "😀"
    third.save()

    body = browser("en").get(f"{URL}?encoding=cp932").json()

    assert body["detail"]["count"] == 2
    assert [(c["row"], c["value"]) for c in body["detail"]["cells"]] == [
        (3, "𠮷田 太郎"),
        (4, "😀"),
    ]
    assert "2 cell(s) in all" in body["message_en"] and "全部で2件" in body["message_ja"]
