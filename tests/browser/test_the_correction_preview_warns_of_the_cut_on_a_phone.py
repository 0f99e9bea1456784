"""The head referee corrects a result after the qualifying stage advanced, on a phone in
Japanese (390×844): the preview lists who moves (「2位 → 4位（同率）」) and warns, at the
`data-cut-warning` element, that the set of finalists above the cut changes; saving needs the
box ticked. Screenshots in test-artifacts/correction-cut-warning-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.models import ResultVersion
from tests.browser.conftest import PHONE
from tests.factories import cut_cup
from tournaments.models import AuditEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Table 1's third game: Doi went out first and Baba was left holding cards.
CORRECTED = ["Doi", "Aoki", "Chiba", "Baba"]


def test_the_correction_preview_warns_of_the_cut_in_japanese_on_a_phone(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    cup = cut_cup()
    game = cup.game(1, 3)
    order = cup.order_of(game, CORRECTED)
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/games/{game.pk}/")
    page.locator("input[name=username]").fill("head-endo")
    page.locator("input[name=password]").fill("correct horse battery")
    page.locator("input[name=password]").press("Enter")

    form = page.get_by_test_id("correction-form")
    for place, seat in enumerate(order, start=1):
        form.locator(f"select[name=outcome_{seat}]").select_option(f"clean-{place}")
    form.locator("input[name=reason]").fill("記録用紙の読み違い")
    form.get_by_role("button", name="確認").click()

    warning = page.locator("[data-cut-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(
        "予選 Qualifyingのカット（総合上位4名）を通過する顔ぶれが変わります"
    )
    expect(warning).to_contain_text("Baba #2: カット内 → カットライン上で同率")
    expect(warning).to_contain_text("すでに決勝 Finalへの進出を確定済みです")
    expect(page.get_by_test_id("rank-changes").first).to_contain_text("2位 → 4位（同率）")
    # Nothing runs off the phone's screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    warning.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "correction-cut-warning-phone.png"))
    page.screenshot(path=str(artifacts / "correction-cut-warning-phone-full.png"), full_page=True)
    page.get_by_test_id("correction-preview").screenshot(
        path=str(artifacts / "correction-cut-warning-phone-preview.png")
    )

    # The box is required: ticked, the correction is saved and audited with it.
    page.get_by_test_id("confirm-cut-change").check()
    page.get_by_test_id("save-correction").click()
    # Saved, the page is drawn again: no preview left, the result at its new version.
    expect(page.get_by_test_id("correction-preview")).to_have_count(0)
    expect(page.get_by_test_id("game-facts")).to_contain_text("2")
    assert ResultVersion.objects.filter(game=game, kind="correction").count() == 1
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_CORRECTED)
    assert (entry.reason, entry.data["cut_change_confirmed"]) == ("記録用紙の読み違い", True)
    context.close()
