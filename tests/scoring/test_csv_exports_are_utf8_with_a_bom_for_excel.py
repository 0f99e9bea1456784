"""The standings CSV opens right in Excel on Japanese Windows: UTF-8 with a byte-order mark
(without one, Excel reads the file as Shift_JIS and shows mojibake), lines ending in CRLF,
`text/csv; charset=utf-8`, and an attachment named after the board in the reader's language
(RFC 5987 `filename*`) with an ASCII fallback. Decoded, it holds exactly the board's cells."""

from __future__ import annotations

import csv
import io
from urllib.parse import unquote

import pytest
from django.test import Client

from tests.factories import TournamentFactory, browser, standings_field
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BOM = b"\xef\xbb\xbf"
HEADER_EN = [
    "rank", "shared", "entry", "player", "points", "games", "daifugo", "fugo", "heimin",
    "hinmin", "daihinmin", "fouls", "miyako_ochi", "best_set", "penalty_points", "warnings",
    "provisional_games", "confirmed_points", "confirmed_rank", "decided_by_playoff",
    "reached_stage",
]  # fmt: skip


@pytest.fixture
def board() -> Tournament:
    tournament = TournamentFactory(
        name="名古屋オープン", slug="nagoya-open", status=Tournament.Status.RUNNING
    )
    standings_field(tournament, 3, name="佐藤")
    return tournament


def expected_row(n: int) -> list[str]:
    """Entry n of `standings_field`, as its docstring describes it: ranked n on 1000 − n
    points (all confirmed) from 4 games, one of each title but 大貧民, best set 6, alone on
    its rank, no playoff; a tournament of one stage marks no stage reached."""
    points = str(1000 - n)
    titles = ["1", "1", "1", "1", "0", "0", "0"]
    return [str(n), "No", str(n), f"佐藤 {n:03d}", points, "4", *titles, "6", "0", "0", "0",
            points, str(n), "No", ""]  # fmt: skip


def test_the_file_starts_with_a_bom_and_ends_its_lines_in_crlf(
    board: Tournament, client: Client
) -> None:
    answer = client.get("/standings/nagoya-open/standings.csv")

    data = answer.content
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert data.startswith(BOM) and not data.startswith(BOM + BOM)
    assert data.endswith(b"\r\n") and data.count(b"\n") == data.count(b"\r\n") == 4


def test_it_decodes_back_to_the_boards_cells(board: Tournament, client: Client) -> None:
    data = client.get("/standings/nagoya-open/standings.csv").content

    cells = list(csv.reader(io.StringIO(data[len(BOM) :].decode("utf-8"), newline="")))

    assert cells == [HEADER_EN, expected_row(1), expected_row(2), expected_row(3)]


def test_the_file_is_named_after_the_board_in_the_readers_language(board: Tournament) -> None:
    ja = browser("ja").get("/standings/nagoya-open/standings.csv")["Content-Disposition"]
    en = browser("en").get("/standings/nagoya-open/standings.csv")["Content-Disposition"]

    assert ja.startswith('attachment; filename="nagoya-open-standings.csv"; ')
    assert unquote(ja.split("filename*=UTF-8''", 1)[1]) == "名古屋オープン 順位表.csv"
    assert unquote(en.split("filename*=UTF-8''", 1)[1]) == "名古屋オープン standings.csv"
