"""On a phone the team standings' W-D-L heading stays on one line (it broke at its hyphens,
"W-D-" over "L", 「勝-分-」 over 「負」), in English and Japanese."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from scoring.standings import recompute_tournament
from tests.factories import guandan_hand, match_table, published_round, team_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize(("locale", "heading"), [("en-GB", "W-D-L"), ("ja-JP", "勝-分-負")])
def test_the_w_d_l_heading_is_one_line_on_a_phone(
    browser: Browser, live_server: LiveServer, locale: str, heading: str
) -> None:
    tournament, stage, (t1, t2, t3, t4) = team_league()
    round_ = published_round(stage, 1)
    guandan_hand(match_table(round_, 1, t1, t2), 1, ("A", "8"), won=0)
    guandan_hand(match_table(round_, 2, t4, t3), 1, ("5", "2"))
    recompute_tournament(tournament.pk)
    page = browser.new_page(viewport=PHONE, locale=locale)
    try:
        page.goto(f"{live_server.url}/standings/{tournament.slug}/")
        cell = page.get_by_test_id("team-standings").locator("th", has_text=heading)
        one_line = cell.evaluate(
            "th => { const r = document.createRange(); r.selectNodeContents(th);"
            " return r.getClientRects().length; }"
        )
        assert one_line == 1
    finally:
        page.close()
