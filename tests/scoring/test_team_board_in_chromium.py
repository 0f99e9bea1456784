"""The team board in Chromium, in Japanese, on a phone (390×844) and a desktop (1280×900): the
team table comes first with its match points, W-D-L, level difference and opponents' match
points readable without scrolling sideways, a match in play shows its levels, and the
players' table follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from scoring.standings import recompute_tournament
from tests.browser.conftest import artifacts, browser_type_launch_args  # noqa: F401 — fixtures
from tests.factories import guandan_hand, match_table, published_round, team_league
from tournaments.models import Bye

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_team_board_reads_on_a_phone_and_a_desktop(
    browser: Browser,
    live_server: LiveServer,
    artifacts: Path,  # noqa: F811 — the fixture imported above
    size: str,
) -> None:
    tournament, stage, teams = team_league(count=7, slug=f"gd-board-{size}")
    t1, t2, t3, t4, t5, t6, t7 = teams
    first = published_round(stage, 1)
    guandan_hand(match_table(first, 1, t1, t2), 1, ("A", "9"), won=0)
    drawn = match_table(first, 2, t3, t4)
    for hand, levels in enumerate([("3", "2"), ("3", "4"), ("7", "7")], start=1):
        guandan_hand(drawn, hand, levels)
    guandan_hand(match_table(first, 3, t5, t6), 1, ("6", "2"), confirmed=False)
    for member in t7.members.all():
        Bye.objects.create(round=first, entry=member, points=2)
    recompute_tournament(tournament.pk)
    page = browser.new_page(viewport=SIZES[size], locale="ja-JP")

    page.goto(f"{live_server.url}/standings/{tournament.slug}/")

    teams_table = page.get_by_test_id("team-standings")
    expect(teams_table).to_contain_text("チーム順位表")
    expect(teams_table).to_contain_text("3卓で対戦中：6 対 2（T6）")
    for heading in ("勝点", "勝-分-負", "級差", "対戦相手勝点"):
        expect(teams_table.get_by_role("columnheader", name=heading, exact=True)).to_be_visible()
    expect(page.locator("#team-1 td").nth(6)).to_have_text("+6")
    expect(page.get_by_role("heading", name="個人順位表")).to_be_visible()
    wide = page.evaluate("document.querySelector('table.teams').getBoundingClientRect().right")
    assert wide <= SIZES[size]["width"]
    page.screenshot(path=str(artifacts / f"team-board-{size}.png"), full_page=True)
    page.close()
