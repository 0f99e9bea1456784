"""A player's name in the standings CSV is never run as a formula by the spreadsheet that opens
it: text starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`
(OWASP, CSV injection), while numbers — a negative points figure too — stay numbers."""

from __future__ import annotations

import csv
import io

from django.test import Client

from scoring.standings import recompute_tournament
from tests.factories import finished_game
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Penalty

HOSTILE_NAMES = ['=HYPERLINK("http://x","y")', "@SUM(A1)", "+1+1", "-2+3"]


def _rows(cup: Cup, client: Client) -> dict[str, dict[str, str]]:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    for entry, name in zip(cup.entries[:4], HOSTILE_NAMES, strict=True):
        entry.player.display_name = name
        entry.player.save()
    finished_game(table, cup.entries[:4], confirmed=True)
    # The last one loses 5 points: their total is -5, a real negative number.
    Penalty.objects.create(
        tournament=cup.tournament, entry=cup.entries[3], kind="deduction", points=5, reason="late"
    )
    recompute_tournament(cup.tournament.pk)
    text = client.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")
    return {row["entry"]: row for row in csv.DictReader(io.StringIO(text))}


def test_names_that_look_like_formulas_are_written_as_text(cup: Cup, client: Client) -> None:
    rows = _rows(cup, client)

    assert [rows[str(n)]["player"] for n in (1, 2, 3, 4)] == [
        '\'=HYPERLINK("http://x","y")',
        "'@SUM(A1)",
        "'+1+1",
        "'-2+3",
    ]


def test_a_negative_points_figure_stays_a_number(cup: Cup, client: Client) -> None:
    rows = _rows(cup, client)

    assert rows["4"]["points"] == "-5"
    assert rows["4"]["confirmed_points"] == "-5"
    assert rows["1"]["points"] == "3"


def test_ordinary_names_are_untouched(cup: Cup, client: Client) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    finished_game(table, cup.entries[:4])
    recompute_tournament(cup.tournament.pk)

    text = client.get("/standings/nagoya-open/standings.csv").content.decode("utf-8-sig")

    players = {row["player"] for row in csv.DictReader(io.StringIO(text))}
    assert {"Aoki", "Baba", "Chiba", "Doi"} <= players


def test_the_shift_jis_file_keeps_the_protection(cup: Cup, client: Client) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    cup.entries[0].player.display_name = "=1+1"
    cup.entries[0].player.save()
    finished_game(table, cup.entries[:4])
    recompute_tournament(cup.tournament.pk)

    data = client.get("/standings/nagoya-open/standings.csv?encoding=cp932").content

    players = {row["player"] for row in csv.DictReader(io.StringIO(data.decode("cp932")))}
    assert "'=1+1" in players and "=1+1" not in players
