"""On a phone, in Japanese, the tournament board says how it is ordered (「順位: 決勝の順位 →
予選の順位」) and which stage each entrant reached, the finalists first."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from scoring.standings import recompute_tournament
from tests.browser.conftest import PHONE
from tests.scoring.final_order_scenario import FINALISTS, play_the_day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_board_on_a_phone_shows_the_order_and_the_stage_reached(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    day = play_the_day()
    recompute_tournament(day.tournament.pk)
    page = browser.new_page(viewport=PHONE, locale="ja-JP")
    try:
        page.goto(f"{live_server.url}/standings/{day.tournament.slug}/")
        caption = page.get_by_test_id("tournament-order")
        assert caption.is_visible()
        assert "順位: 決勝の順位 → 予選の順位" in caption.inner_text()
        reached = page.get_by_test_id("reached-stage")
        assert reached.first.is_visible()
        shown = [cell.inner_text() for cell in reached.all()]
        assert shown[: len(FINALISTS)] == ["決勝"] * len(FINALISTS)
        assert set(shown[len(FINALISTS) :]) == {"予選", "—"}
        page.screenshot(path=str(artifacts / "final-order-phone-ja.png"), full_page=True)
    finally:
        page.close()
