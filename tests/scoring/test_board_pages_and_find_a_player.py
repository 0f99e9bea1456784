"""A public board shows one page of rows (``LEADERBOARD_PAGE_SIZE``) with links to the others
and a "find a player" box; the cut line and the advancing marks are right on every page (they
are computed over the whole field); print pages print every row; the embed shows the first
page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import StageFactory, TournamentFactory, browser, standings_field
from tournaments.models import Entry, Player, Stage, Tournament


@pytest.fixture(autouse=True)
def ten_a_page(settings: Any) -> None:
    settings.LEADERBOARD_PAGE_SIZE = 10


@pytest.fixture
def field(db: None) -> list[Entry]:
    """25 entrants of a running tournament with a top-15 stage; entry n ranks n."""
    tournament = TournamentFactory(
        name="Kyoto Open", slug="kyoto-open", status=Tournament.Status.RUNNING
    )
    stage = StageFactory(tournament=tournament, order=1, name="Qualifying", advance_top_n=15)
    return standings_field(tournament, 25, stage=stage)


def _names(html: str) -> list[str]:
    return re.findall(r">(Entrant \d{3})</a>", html)


def test_the_board_shows_one_page_and_links_the_others(field: list[Entry], client: Client) -> None:
    first = client.get("/standings/kyoto-open/").content.decode()
    last = client.get("/standings/kyoto-open/?page=3").content.decode()

    assert _names(first) == [f"Entrant {n:03d}" for n in range(1, 11)]
    assert _names(last) == [f"Entrant {n:03d}" for n in range(21, 26)]
    assert "Places 1–10 of 25" in first and "Places 21–25 of 25" in last
    assert 'href="/standings/kyoto-open/?page=2" rel="next"' in first
    assert 'href="/standings/kyoto-open/?page=3"' in first
    # A page polls for itself.
    assert 'hx-get="/standings/kyoto-open/?page=3&amp;v=1"' in last


@pytest.mark.parametrize("page", ["4", "0", "two", "-1"])
def test_a_page_that_is_not_there_is_not_found(
    field: list[Entry], client: Client, page: str
) -> None:
    assert client.get(f"/standings/kyoto-open/?page={page}").status_code == 404


def test_the_cut_line_is_drawn_on_its_page_and_named_on_the_others(
    field: list[Entry], client: Client
) -> None:
    stage = Stage.objects.get(tournament__slug="kyoto-open")
    board = f"/standings/kyoto-open/stage/{stage.pk}/"

    first = client.get(board).content.decode()
    second = client.get(f"{board}?page=2").content.decode()
    third = client.get(f"{board}?page=3").content.decode()

    assert "top 15 by total points — 15 would advance" in first
    assert 'class="advancing cut-line"' not in first and first.count('class="advancing"') == 10
    assert "The line is below rank 15, on page 2." in first
    assert f'href="{board}?page=2" data-testid="cut-line-page"' in first
    line = re.search(r'<tr id="player-(\d+)" class="advancing cut-line">', second)
    assert line is not None and int(line.group(1)) == field[14].player_id
    assert second.count('class="advancing"') == 4 and "The line is below" not in second
    assert "advancing" not in third.split("<tbody>", 1)[1]


def test_finding_a_player_by_entry_number_opens_their_page_at_their_row(
    field: list[Entry], client: Client
) -> None:
    player = field[22].player_id

    found = client.get("/standings/kyoto-open/?find=23")
    page = client.get(found["Location"].split("#")[0]).content.decode()

    assert found.status_code == 302
    assert found["Location"] == f"/standings/kyoto-open/?page=3#player-{player}"
    assert f'<tr id="player-{player}"' in page


def test_finding_a_player_by_name_or_kana(field: list[Entry], client: Client) -> None:
    Player.objects.filter(pk=field[11].player_id).update(
        display_name="山田 太郎", name_kana="やまだ たろう"
    )

    by_kana = client.get("/standings/kyoto-open/?find=やまだ")
    by_name = client.get("/standings/kyoto-open/?find=山田")

    expected = f"/standings/kyoto-open/?page=2#player-{field[11].player_id}"
    assert by_kana["Location"] == by_name["Location"] == expected


def test_several_matches_are_listed_with_their_pages(field: list[Entry], client: Client) -> None:
    html = client.get("/standings/kyoto-open/?find=Entrant 00").content.decode()

    # Entrants 001–009: one to a row, each linking to its page and row.
    assert html.count("<tr><td") == 9
    assert f'href="/standings/kyoto-open/?page=1#player-{field[8].player_id}"' in html


def test_a_name_nobody_has_is_said_so(field: list[Entry], client: Client) -> None:
    answer = client.get("/standings/kyoto-open/?find=<Nobody>")

    assert answer.status_code == 200
    assert "No player on this board matches “&lt;Nobody&gt;”." in answer.content.decode()


def test_the_print_page_prints_every_row(field: list[Entry], client: Client) -> None:
    html = client.get("/standings/kyoto-open/print/").content.decode()

    assert all(f"Entrant {n:03d}" in html for n in range(1, 26))


def test_the_embed_shows_the_first_page(field: list[Entry], client: Client) -> None:
    html = client.get("/embed/kyoto-open/").content.decode()

    assert "Entrant 010" in html and "Entrant 011" not in html
    assert "Places 1–10 of 25" in html


def test_the_pages_and_the_search_speak_japanese(field: list[Entry]) -> None:
    html = browser("ja").get("/standings/kyoto-open/?page=2").content.decode()

    assert "選手を探す" in html and "Find a player" not in html
    assert "25人中 11〜20人目" in html and "Places 11–20" not in html
