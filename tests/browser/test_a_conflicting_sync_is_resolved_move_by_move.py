"""While the referee's phone is offline the game moves on at the server (another device records
Baba's move differently). Back online, the phone's first queued move meets a taken seq: the
console shows the server's new move and each of its own moves judged again on the server's game
— Baba's is refused, the two after it can still be played. The referee sends the ticked ones;
the server's log then holds each chosen move exactly once and never the refused one (#19)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Move
from tests.browser.conftest import shoot
from tests.browser.test_a_referee_plays_on_through_a_network_outage import (
    HANDS,
    go_offline,
    open_console,
    referee_table,
    tap,
    wait_until_ready_for_an_outage,
)
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_conflicting_sync_is_resolved_move_by_move(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    table, referee = referee_table("ito")
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    assert services.submit_move(game, {"seat": 0, "play": ["3S"]}, 1, referee).ok
    page = open_console(browser, live_server.url, "ito", table)
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    tap(page, 1, "4H")
    tap(page, 2, "TC")
    tap(page, 3, None)
    # Meanwhile another device at the table records Baba's move as ♥9.
    assert services.submit_move(game, {"seat": 1, "play": ["9H"]}, 2, referee).ok

    page.context.set_offline(False)
    banner = page.get_by_test_id("sync-banner")
    expect(banner).to_have_attribute("data-state", "conflict", timeout=30_000)
    panel = page.get_by_test_id("sync-conflict")
    expect(panel.get_by_test_id("conflict-server-moves").locator("li")).to_have_count(1)
    mine = panel.get_by_test_id("conflict-my-moves").locator("li")
    expect(mine).to_have_count(3)
    expect(mine.nth(0)).to_contain_text("not_your_turn")
    expect(mine.nth(0).locator("input")).not_to_be_checked()
    for still_legal in (mine.nth(1), mine.nth(2)):
        expect(still_legal).to_contain_text("今も出せます")
        expect(still_legal.locator("input")).to_be_checked()
    shoot(page, artifacts, "offline-conflict")

    panel.get_by_role("button", name="チェックした手を送信").click()
    expect(banner).to_have_attribute("data-state", "synced", timeout=30_000)
    expect(page.get_by_test_id("turn")).to_contain_text("Aoki")

    rows = [(r.seq, r.payload) for r in game.moves.filter(kind=Move.Kind.ACTION).order_by("seq")]
    assert rows == [
        (1, {"seat": 0, "play": ["3S"]}),
        (2, {"seat": 1, "play": ["9H"]}),
        (3, {"seat": 2, "play": ["TC"]}),
        (4, {"seat": 3, "pass": True}),
    ]
    assert not game.moves.exclude(kind=Move.Kind.ACTION).exists()


def test_the_referee_may_discard_the_phones_moves_instead(
    browser: Browser, live_server: LiveServer
) -> None:
    table, referee = referee_table("ito")
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    page = open_console(browser, live_server.url, "ito", table)
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    tap(page, 0, "3S")
    tap(page, 1, "5S")
    # Another device records the same lead (the phone's resend of it is harmless), then ♥4.
    assert services.submit_move(game, {"seat": 0, "play": ["3S"]}, 1, referee).ok
    assert services.submit_move(game, {"seat": 1, "play": ["4H"]}, 2, referee).ok

    page.context.set_offline(False)
    panel = page.get_by_test_id("sync-conflict")
    expect(panel.get_by_test_id("conflict-server-moves").locator("li")).to_have_count(1)
    expect(panel.get_by_test_id("conflict-my-moves").locator("li")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    panel.get_by_role("button", name="この端末の手を破棄").click()
    expect(page.get_by_test_id("sync-banner")).to_have_attribute("data-state", "synced")
    expect(page.get_by_test_id("turn")).to_contain_text("Chiba")
    assert [(r.seq, r.payload) for r in game.moves.order_by("seq")] == [
        (1, {"seat": 0, "play": ["3S"]}),
        (2, {"seat": 1, "play": ["4H"]}),
    ]
