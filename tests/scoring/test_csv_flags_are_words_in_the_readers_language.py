"""In the CSV exports a flag (a shared rank, a place decided by playoff) is a word in the
reader's language — はい/いいえ, Yes/No — never Python's True/False; the JSON export keeps
the machine values true/false."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.models import Standing
from tests.factories import TournamentFactory, browser, standings_field
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied() -> Tournament:
    """Entrants 1 and 2 share first place; entrant 3 is third, alone."""
    tournament = TournamentFactory(slug="kobe-cup", status=Tournament.Status.RUNNING)
    standings_field(tournament, 3)
    Standing.objects.filter(entry__number__in=[1, 2]).update(rank=1, shared=True)
    return tournament


def flags(language: str) -> tuple[list[str], dict[str, tuple[str, str]]]:
    data = browser(language).get("/standings/kobe-cup/standings.csv").content
    header, *rows = csv.reader(io.StringIO(data.decode("utf-8-sig")))
    # decided_by_playoff: the flag column before the stage reached, which closes every row.
    return header, {row[2]: (row[1], row[-2]) for row in rows}


def test_japanese_readers_read_hai_and_iie(tied: Tournament) -> None:
    header, rows = flags("ja")

    assert (header[1], header[-2]) == ("同順位", "順位決定戦で決定")
    assert rows == {"1": ("はい", "いいえ"), "2": ("はい", "いいえ"), "3": ("いいえ", "いいえ")}


def test_english_readers_read_yes_and_no(tied: Tournament) -> None:
    header, rows = flags("en")

    assert (header[1], header[-2]) == ("shared", "decided_by_playoff")
    assert rows == {"1": ("Yes", "No"), "2": ("Yes", "No"), "3": ("No", "No")}


def test_the_json_export_keeps_true_and_false(tied: Tournament) -> None:
    data = browser("ja").get("/standings/kobe-cup/standings.json").json()

    assert [(r["entry"], r["shared"], r["decided_by_playoff"]) for r in data["standings"]] == [
        (1, True, False),
        (2, True, False),
        (3, False, False),
    ]
