"""Deployed, a referee's device records a game as a quick result through gunicorn's API; the
Celery worker (its task handed over through the broker) recomputes the standings, and the
public standings gunicorn answers then equal an independent recount of the results
(tests/scoring/oracle.py), on the API and on the leaderboard page."""

from __future__ import annotations

import pytest

from games.auth import issue_device_token
from games.models import GameResult
from tests.conftest import wait_until
from tests.games.conftest import Crew
from tests.games.conftest import crew as crew  # the referee crew fixture, shared
from tests.production.conftest import Production, Visitor
from tests.scoring.oracle import recount
from tournaments.points import DEFAULT_TIE_BREAKS

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Seats in the order they went out: seat 2 first, seat 1 last.
ORDER = [2, 0, 3, 1]


def expected(crew: Crew) -> dict[int, tuple[int, int, int]]:
    """(points, games, rank) by entry number, recounted from the result rows."""
    results = list(
        GameResult.objects.filter(entry__tournament=crew.tournament).select_related("game", "entry")
    )
    numbers = {r.entry_id: r.entry.number for r in results}
    lines = recount(results, list(DEFAULT_TIE_BREAKS))
    return {numbers[who]: (ln["points"], ln["games"], ln["rank"]) for who, ln in lines.items()}


def test_a_quick_result_reaches_the_public_standings(production: Production, crew: Crew) -> None:
    _, token = issue_device_token(crew.referee, "phone")
    device = Visitor(production.origin)
    tables = f"/api/tables/{crew.table.pk}/games/"
    status, game = device.api("POST", tables, {"mode": "quick"}, token)
    assert status == 201, game

    status, recorded = device.api(
        "POST", f"/api/games/{game['id']}/quick-result/", {"finishing_order": ORDER}, token
    )

    assert status == 201, recorded
    assert [r["seat"] for r in recorded["results"]] == ORDER
    public = Visitor(production.origin)
    slug = crew.tournament.slug

    def board() -> dict[int, tuple[int, int, int]]:
        status, standings = public.api("GET", f"/api/tournaments/{slug}/standings/")
        assert status == 200, standings
        return {r["entry"]: (r["points"], r["games"], r["rank"]) for r in standings["results"]}

    wait_until(lambda: len(board()) == 4, 30, "the worker's standings")
    assert board() == expected(crew)
    status, page = public.get(f"/standings/{slug}/")
    assert status == 200
    winner = crew.table.seats.get(position=ORDER[0] + 1).entry.player.display_name
    assert winner in page
