"""A spectator follows a table's live page on a phone, in Japanese, while the referee plays a
revolution and undoes it: at a known deal the play and its 革命 vanish from the page they have
open (its poll brings the new version), leaving 「取り消し」 and no card of it; at an open table
the play stays in the log struck through, marked 取り消し, with the referee's reason.
Screenshots: test-artifacts/live-undo-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MOVES = [
    {"seat": 0, "play": ["3D"]},
    {"seat": 1, "pass": True},
    {"seat": 2, "pass": True},
    {"seat": 3, "pass": True},
    {"seat": 0, "play": ["6S", "6H", "6D", "6C"]},
]
DEALT = {
    "hands": [
        ["3D", "6S", "6H", "6D", "6C", "9C"],
        ["4H", "KS"],
        ["5S", "QD"],
        ["7H", "TD"],
    ]
}
OPEN = {"mode": Game.Mode.OPEN_TABLE, "hands": [None] * 4, "counts": [13] * 4}


@pytest.mark.parametrize("mode", ["dealt", "open"])
def test_a_spectators_phone_follows_the_undo(
    browser: Browser, live_server: LiveServer, artifacts: Path, mode: str
) -> None:
    referee = UserFactory(username="ito")
    table = seated_table(referee)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    setup: dict[str, Any] = DEALT if mode == "dealt" else OPEN
    game = GameFactory(table=table, game_number=1, leader=0, **setup)
    for seq, move in enumerate(MOVES, start=1):
        assert services.submit_move(game, move, seq, referee).ok, move
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/live/")
    events = page.locator("ol.events")
    expect(events).to_contain_text("革命！")
    expect(page.locator("dl.state")).to_contain_text("革命中")

    services.request_undo(game, referee, "押し間違い", seq=5)

    expect(page.locator("dl.state")).not_to_contain_text("革命中", timeout=8000)
    if mode == "dealt":
        expect(events).not_to_contain_text("革命！")
        expect(events).not_to_contain_text("♠6")
        expect(events.locator("li").last).to_have_text("#6 取り消し")
        expect(page.get_by_test_id("live-withdrawn")).to_have_count(0)
    else:
        struck = page.get_by_test_id("live-withdrawn")
        expect(struck).to_have_count(1)
        expect(struck.locator("del")).to_contain_text("♠6 ♥6 ♦6 ♣6")
        expect(struck.locator(".badge")).to_have_text("取り消し")
        expect(events.locator("li").last).to_have_text("#6 取り消し: 押し間違い")
        assert struck.evaluate("e => getComputedStyle(e.querySelector('del')).textDecorationLine")
    # Nothing sticks out of the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / f"live-undo-{mode}-phone.png"), full_page=True)
    context.close()
