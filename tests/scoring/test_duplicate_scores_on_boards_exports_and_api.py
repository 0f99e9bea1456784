"""The standings of a scope with duplicate games show raw points and the duplicate score side
by side (docs/duplicate.md): the public board (stage and tournament), the embed, the print
page, the CSV and JSON exports and the standings API; a scope without one shows no column."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import Game
from scoring.models import Standing
from scoring.selectors import signed_par
from scoring.standings import recompute_tournament
from tests.factories import browser, duplicate_round
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Round:
    """A 16-player duplicate round whose four tables each finish in seat order: hand h at
    table index r finishes (h + r) % 4 + 1st, so every hand scores differently at each table."""
    round_, organiser = duplicate_round(16)
    assert isinstance(organiser, User)
    for table in round_.tables.order_by("number"):
        game = games.start_game(table, organiser, mode=Game.Mode.QUICK)
        games.record_quick_result(game, organiser, [0, 1, 2, 3])
    recompute_tournament(round_.stage.tournament_id)
    return round_


def test_signed_par_prints_a_sign_and_two_places() -> None:
    assert [signed_par(Decimal(v)) for v in ("1.5", "-1.33", "0.00")] == [
        "+1.50",
        "\u22121.33",
        "0.00",
    ]
    assert signed_par(None) == "—"


def test_the_boards_show_points_and_the_duplicate_score(played: Round) -> None:
    tournament = played.stage.tournament
    rows = Standing.objects.filter(scope="tournament", tournament=tournament)
    shown = {signed_par(r.duplicate_points) for r in rows}
    assert len(shown) > 1  # not all level: the column says something

    for url in [
        f"/standings/{tournament.slug}/",
        f"/standings/{tournament.slug}/stage/{played.stage_id}/",
        f"/standings/{tournament.slug}/print/",
        f"/embed/{tournament.slug}/",
    ]:
        page = browser().get(url).content.decode()
        assert "Duplicate" in page, url
        for text in shown:
            assert text in page, (url, text)
    japanese = browser("ja").get(f"/standings/{tournament.slug}/").content.decode()
    assert "デュプリ" in japanese


def test_the_exports_and_the_api_carry_the_duplicate_score(played: Round) -> None:
    tournament = played.stage.tournament
    expected = {
        r.entry.number: (f"{r.duplicate_points:.2f}", r.duplicate_games)
        for r in Standing.objects.filter(scope="tournament", tournament=tournament).select_related(
            "entry"
        )
    }

    api = browser().get(f"/api/tournaments/{tournament.slug}/standings/").json()
    export = browser().get(f"/standings/{tournament.slug}/standings.json").json()
    sheet = browser().get(f"/standings/{tournament.slug}/standings.csv").content.decode("utf-8-sig")

    for rows in (api["results"], export["standings"]):
        assert {r["entry"]: (r["duplicate_points"], r["duplicate_games"]) for r in rows} == (
            expected
        )
    table = list(csv.DictReader(io.StringIO(sheet)))
    assert {int(r["entry"]): (r["duplicate_points"], int(r["duplicate_games"])) for r in table} == (
        expected
    )


def test_a_scope_without_duplicate_games_shows_no_duplicate_column(played: Round) -> None:
    tournament = played.stage.tournament
    Game.objects.filter(table__round=played).update(deal_key="")
    recompute_tournament(tournament.pk)

    page = browser().get(f"/standings/{tournament.slug}/").content.decode()
    sheet = browser().get(f"/standings/{tournament.slug}/standings.csv").content.decode("utf-8-sig")
    api = browser().get(f"/api/tournaments/{tournament.slug}/standings/").json()

    assert 'data-testid="duplicate-head"' not in page
    assert "duplicate_points" not in sheet.splitlines()[0]
    assert {r["duplicate_points"] for r in api["results"]} == {None}
