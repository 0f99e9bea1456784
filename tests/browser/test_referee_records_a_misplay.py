"""A referee records a プンリー (misplay) in the console on a phone: ticks the cards in the
player's hand, taps 「プンリー（誤出し）を記録」 / "Record a misplay (punrī)"; the cards stay with
the player, face up in the console and on the public live page, and the turn does not move.
Screenshots at phone (390×844) and desktop size go to test-artifacts/misplay-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.services import submit_move
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Aoki (seat 1) holds ♦3 and leads; Baba (seat 2) is next and misplays ♥7 ♦K.
HANDS = [["3D", "5S", "9H"], ["4S", "7H", "KD"], ["6C", "TC"], ["JC", "QC"]]


def test_a_referee_records_a_misplay_and_everyone_sees_the_cards(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    game = GameFactory(
        table=table,
        game_number=1,
        ruleset_id="gekijo",
        ruleset_version=2,  # gekijo@2: misplays are recorded
        hands=HANDS,
    )
    assert submit_move(game, {"seat": 0, "play": ["3D"]}, 1, referee).ok
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/accounts/login/?next=/referee/tables/{table.pk}/")
    page.get_by_label("User name").fill("ito")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("turn")).to_contain_text("Baba")

    page.get_by_test_id("misplay").locator("summary").click()
    form = page.get_by_test_id("misplay-2")
    for code in ("7H", "KD"):
        form.locator(f"label.card:has(input[value='{code}'])").click()
    page.screenshot(path=str(artifacts / "misplay-console-choose-phone.png"), full_page=True)
    form.get_by_role("button", name="Record a misplay (punrī)").click()

    exposed = page.get_by_test_id("exposed-2")
    expect(exposed).to_contain_text("♥7")
    expect(exposed).to_contain_text("♦K")
    expect(page.get_by_test_id("turn")).to_contain_text("Baba")  # the turn did not move
    page.screenshot(path=str(artifacts / "misplay-console-phone.png"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(artifacts / "misplay-console-desktop.png"), full_page=True)

    # The public live page, in Japanese, at both sizes: the cards are face up for everyone.
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    viewer = context.new_page()
    viewer.goto(f"{live_server.url}/tables/{table.pk}/live/")
    shown = viewer.get_by_test_id("exposed")
    expect(shown).to_contain_text("公開中（プンリー）")
    expect(shown).to_contain_text("♥7")
    expect(viewer.locator("ol.events")).to_contain_text("プンリー（誤出し）")
    viewer.screenshot(path=str(artifacts / "misplay-live-ja-phone.png"), full_page=True)
    viewer.set_viewport_size({"width": 1280, "height": 900})
    viewer.screenshot(path=str(artifacts / "misplay-live-ja-desktop.png"), full_page=True)
    context.close()
