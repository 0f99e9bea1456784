"""The tournament-wide order ranks by stage reached first (docs/formats.md, "The tournament's
order"): after the cut and one game of the final, every finalist ranks above every player
eliminated at the cut — even the 5th qualifier, whose 2 points are more than two finalists'
totals — on the tournament board, its embed and print page, the CSV and JSON exports, the API
and the `standings.changed` webhook. Each says which stage every entrant reached; the points
shown stay the tournament's totals. Checked against `expected_order`, computed from the score
sheets by the rule alone."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from scoring import webhooks
from scoring.standings import ScopeRef, recompute_tournament, standings
from tests.factories import browser
from tests.scoring.conftest import Receiver
from tests.scoring.final_order_scenario import (
    FINALISTS,
    LATE,
    Day,
    expected_order,
    play_the_day,
    tournament_totals,
)

pytestmark = pytest.mark.django_db

ROW = re.compile(
    r'<tr id="player-(\d+)"[^>]*>\s*<td class="num">(=?)(\d+)</td>.*?'
    r'data-testid="reached-stage">([^<]*)</td>',
    re.S,
)


@pytest.fixture
def day(receiver: Receiver, django_capture_on_commit_callbacks) -> Day:  # type: ignore[no-untyped-def]
    day = play_the_day()
    webhooks.create_endpoint(day.tournament, day.organiser, receiver.url, ["standings.changed"])
    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(day.tournament.pk)
    return day


def _reached(number: int) -> str:
    return "決勝" if number in FINALISTS else ("" if number == LATE else "予選")


def test_the_premise_the_5th_qualifier_has_more_points_than_two_finalists() -> None:
    totals = tournament_totals()
    assert sum(1 for n in FINALISTS if totals[n] < totals[11]) == 2


def test_the_rows_rank_the_final_above_the_cut(day: Day) -> None:
    rows = standings(ScopeRef.tournament(day.tournament.pk))
    numbers = {e.pk: n for n, e in day.entries.items()}
    got = {numbers[r.entry_id]: (r.rank, r.shared) for r in rows if r.entry_id is not None}
    assert got == expected_order()
    # The order over confirmed results is the same (every result here is confirmed).
    assert {numbers[r.entry_id]: r.confirmed_rank for r in rows if r.entry_id} == {
        n: rank for n, (rank, _) in expected_order().items()
    }
    # The points stay the tournament's totals.
    assert {numbers[r.entry_id]: r.points for r in rows if r.entry_id} == tournament_totals()
    assert {
        numbers[r.entry_id]: r.reached_stage.name if r.reached_stage else ""
        for r in rows
        if r.entry_id
    } == {n: _reached(n) for n in day.entries}


def test_the_board_embed_and_print_page_show_the_order_and_the_stage_reached(day: Day) -> None:
    ja = browser("ja")
    players = {e.player_id: n for n, e in day.entries.items()}
    board = ja.get(f"/standings/{day.tournament.slug}/").content.decode()
    assert "順位: 決勝の順位 → 予選の順位" in board
    shown = {
        players[int(pid)]: (int(rank), eq == "=", reached)
        for pid, eq, rank, reached in ROW.findall(board)
    }
    assert {n: (r, s) for n, (r, s, _) in shown.items()} == expected_order()
    assert {n: reached for n, (*_, reached) in shown.items()} == {
        n: _reached(n) or "—" for n in day.entries
    }
    assert "到達" in board

    embed = ja.get(f"/embed/{day.tournament.slug}/").content.decode()
    assert "順位: 決勝の順位 → 予選の順位" in embed
    names = re.findall(r"<td>(選手\d\d)", embed)
    assert names[: len(FINALISTS)] == [
        day.entries[n].player.display_name
        for n in sorted(FINALISTS, key=lambda n: expected_order()[n])
    ]

    printed = ja.get(f"/standings/{day.tournament.slug}/print/").content.decode()
    assert "順位: 決勝の順位 → 予選の順位" in printed
    assert printed.count('data-testid="reached-stage">決勝<') == len(FINALISTS)

    # A stage board keeps its own order, and marks the stage each entrant reached too.
    stage_board = ja.get(
        f"/standings/{day.tournament.slug}/stage/{day.qualifying.pk}/"
    ).content.decode()
    assert stage_board.count('data-testid="reached-stage">決勝<') == len(FINALISTS)
    assert 'data-testid="tournament-order"' not in stage_board


def test_the_exports_and_the_api_rank_the_final_above_the_cut(day: Day) -> None:
    en = browser("en")
    expected = expected_order()
    slug = day.tournament.slug
    table = list(
        csv.DictReader(
            io.StringIO(en.get(f"/standings/{slug}/standings.csv").content.decode("utf-8-sig"))
        )
    )
    assert {int(r["entry"]): int(r["rank"]) for r in table} == {
        n: r for n, (r, _) in expected.items()
    }
    assert {int(r["entry"]): r["reached_stage"] for r in table} == {
        n: _reached(n) for n in day.entries
    }

    exported = en.get(f"/standings/{slug}/standings.json").json()
    assert {r["entry"]: (r["rank"], r["shared"]) for r in exported["standings"]} == expected
    assert {r["entry"]: r["reached_stage"] for r in exported["standings"]} == {
        n: _reached(n) or None for n in day.entries
    }
    assert exported["order"]["steps"] == [
        {"stages": ["決勝"], "by": "stage"},
        {"stages": ["予選"], "by": "stage"},
    ]

    api = en.get(f"/api/tournaments/{slug}/standings/?limit=1000").json()
    assert {r["entry"]: (r["rank"], r["shared"]) for r in api["results"]} == expected
    assert {r["entry"]: r["reached_stage"] for r in api["results"]} == {
        n: _reached(n) or None for n in day.entries
    }
    assert api["order"]["caption"] == "決勝 standings → 予選 standings"
    stage_api = en.get(f"/api/stages/{day.final.pk}/standings/").json()
    assert stage_api["order"] is None


def test_the_standings_webhook_ranks_the_final_above_the_cut(day: Day, receiver: Receiver) -> None:
    events = [json.loads(body)["data"] for _, body in receiver.received]
    (whole,) = [e for e in events if e["scope"]["kind"] == "tournament"]
    assert {r["entry"]: (r["rank"], r["shared"]) for r in whole["standings"]} == expected_order()
    assert {r["entry"]: r["reached_stage"] for r in whole["standings"]} == {
        n: _reached(n) or None for n in day.entries
    }
    assert [step["stages"] for step in whole["order"]["steps"]] == [["決勝"], ["予選"]]
