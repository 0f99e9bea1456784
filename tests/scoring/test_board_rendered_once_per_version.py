"""A board is rendered once per (scope, version, page, language) and every later viewer of that
version gets it from the cache: no template rendering, no standings query. Public answers
carry the headers a proxy or CDN needs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from scoring.standings import recompute_tournament
from tests.factories import (
    StageFactory,
    TournamentFactory,
    browser,
    finished_game,
    standings_field,
)
from tests.scoring.conftest import Cup, seat_round
from tournaments.models import Tournament

HTMX = {"HX-Request": "true"}


@pytest.fixture
def rendered() -> Iterator[list[str]]:
    """The names of the templates rendered while the test runs."""
    names: list[str] = []

    def note(sender: Any, template: Any, **kwargs: Any) -> None:
        names.append(template.name)

    template_rendered.connect(note)
    yield names
    template_rendered.disconnect(note)


@pytest.fixture
def open_event(db: None) -> Tournament:
    tournament = TournamentFactory(slug="big-open", status=Tournament.Status.RUNNING)
    standings_field(tournament, 30)
    return tournament


def test_the_second_viewer_of_a_version_gets_the_board_without_rendering_it(
    open_event: Tournament,
    rendered: list[str],
    django_assert_num_queries: Callable[..., Any],
) -> None:
    first = browser("en").get("/standings/big-open/?v=0", headers=HTMX)
    rendered.clear()

    # The one query: is the tournament still public?
    with django_assert_num_queries(1):
        second = browser("en").get("/standings/big-open/?v=0", headers=HTMX)

    assert second.status_code == 200 and rendered == []
    assert second.content == first.content and b"Entrant 030" in second.content


def test_the_whole_page_of_a_cached_version_reads_no_standings(open_event: Tournament) -> None:
    first = browser("en").get("/standings/big-open/")

    with CaptureQueriesContext(connection) as queries:
        second = browser("en").get("/standings/big-open/")

    assert second.status_code == 200 and b"Entrant 030" in second.content
    assert second.content.count(b'id="player-') == first.content.count(b'id="player-') == 30
    assert not any("scoring_standing" in query["sql"] for query in queries)
    assert len(queries) == 1


def test_a_new_version_is_rendered_anew(
    cup: Cup, client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    aoki, baba, chiba, doi = cup.entries[:4]
    finished_game(table, [baba, aoki, chiba, doi], game_number=1, confirmed=True)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_tournament(cup.tournament.pk)
    before = client.get("/standings/nagoya-open/").content.decode()

    finished_game(table, [doi, aoki, chiba, baba], game_number=2, confirmed=True)
    finished_game(table, [doi, chiba, aoki, baba], game_number=3, confirmed=True)
    with django_capture_on_commit_callbacks(execute=True):  # publishes version 2
        recompute_tournament(cup.tournament.pk)
    after = client.get("/standings/nagoya-open/").content.decode()
    poll = client.get("/standings/nagoya-open/?v=1", headers=HTMX)

    assert before.index("Baba") < before.index("Doi") and 'data-version="1"' in before
    assert after.index("Doi") < after.index("Baba") and 'data-version="2"' in after
    assert poll.status_code == 200 and b'data-version="2"' in poll.content


def test_each_language_gets_its_own_rendering(open_event: Tournament) -> None:
    english = browser("en").get("/standings/big-open/?v=0", headers=HTMX).content.decode()
    japanese = browser("ja").get("/standings/big-open/?v=0", headers=HTMX).content.decode()

    assert ">Rank</th>" in english and ">順位</th>" not in english
    assert ">順位</th>" in japanese and ">Rank</th>" not in japanese


def test_public_answers_carry_headers_for_a_proxy(open_event: Tournament, client: Client) -> None:
    partial = client.get("/standings/big-open/?v=0", headers=HTMX)
    unchanged = client.get("/standings/big-open/?v=1", headers=HTMX)
    embed = client.get("/embed/big-open/")
    page = client.get("/standings/big-open/")

    for answer in (partial, unchanged, embed):
        assert set(answer["Cache-Control"].split(", ")) == {"public", "max-age=2"}
        assert answer["ETag"].startswith('"tournament-') and "-1-en-" in answer["ETag"]
    vary = {v.strip().lower() for v in partial["Vary"].split(",")}
    assert {"hx-request", "accept-language", "cookie"} <= vary
    assert partial["ETag"] != embed["ETag"]
    # The page itself carries the visitor's CSRF token and header: for their browser only.
    assert "private" in page["Cache-Control"] and "ETag" not in page
    assert "hx-request" in page["Vary"].lower()


def test_the_whole_field_is_read_once_per_version_for_all_pages(db: None, settings: Any) -> None:
    settings.LEADERBOARD_PAGE_SIZE = 10
    tournament = TournamentFactory(slug="cut-open", status=Tournament.Status.RUNNING)
    stage = StageFactory(tournament=tournament, order=1, advance_top_n=15)
    standings_field(tournament, 30, stage=stage)
    board = f"/standings/cut-open/stage/{stage.pk}/"
    browser("en").get(board)

    with CaptureQueriesContext(connection) as queries:
        second = browser("ja").get(f"{board}?page=2").content.decode()

    standings_queries = [q["sql"] for q in queries if "scoring_standing" in q["sql"]]
    # Only the page's own rows; the cut line over all 30 comes from the cache, and is right.
    assert len(standings_queries) == 1 and "LIMIT 10 OFFSET 10" in standings_queries[0]
    assert second.count('class="advancing"') == 4 and 'class="advancing cut-line"' in second
