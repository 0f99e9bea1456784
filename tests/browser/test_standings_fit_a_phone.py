"""The standings board ranks on the family's metrics (大富豪, 富豪, 平民, 貧民, 反則 for 大富豪):
a desktop shows every one of them; a phone shows the first two, so the names stay readable, and
the rest stay in the exports and on wider screens."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from games.engine.daifugo import DAIFUGO
from scoring.standings import recompute_tournament
from tests.factories import finished_game
from tests.scoring.conftest import Cup, cup, seat_round  # noqa: F401 — the cup fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _visible_metric_columns(browser: Browser, url: str, viewport: dict[str, int]) -> list[str]:
    page = browser.new_page(viewport=viewport, locale="ja-JP")
    try:
        page.goto(url)
        return [
            th.get_attribute("data-metric") or ""
            for th in page.locator("table.standings th[data-metric]").all()
            if th.is_visible()
        ]
    finally:
        page.close()


def test_a_phone_shows_the_first_two_metrics_and_a_desktop_all(
    browser: Browser,
    live_server: LiveServer,
    cup: Cup,  # noqa: F811 — the fixture imported above
) -> None:
    (table,) = seat_round(cup.stage, cup.entries[:4])
    finished_game(table, cup.entries[:4], fouls=(4,))
    recompute_tournament(cup.tournament.pk)
    url = f"{live_server.url}/standings/{cup.tournament.slug}/"

    on_desktop = _visible_metric_columns(browser, url, DESKTOP)
    on_phone = _visible_metric_columns(browser, url, PHONE)

    declared = [m.key for m in DAIFUGO.metrics]
    assert len(on_desktop) > 2 and set(on_desktop) <= set(declared)
    assert on_phone == on_desktop[:2]
