"""A table of 3 (an uneven field's short table) goes offline like a table of 4 (issue #35 §7):
the console promises offline mode only once there is a game it can go on with, the phone
judges every tap with the engine under Pyodide (the record names three seats), shows the
places the rules give, and sends the moves when the network is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.browser.conftest import shoot
from tests.browser.test_a_referee_plays_on_through_a_network_outage import (
    NAMES,
    go_offline,
    open_console,
    record_move,
    tap,
    wait_until_ready_for_an_outage,
)
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Singles rising one rank, the suit changing every play (no lock), no 8, 2 or joker: seat 0
# goes out first (7S), seat 2 second (TH), seat 1 is left holding KC.
HANDS = [["3D", "7S"], ["4H", "9D", "KC"], ["5C", "TH"]]
ONLINE = [(0, "3D")]
OFFLINE = [(1, "4H"), (2, "5C"), (0, "7S"), (1, "9D"), (2, "TH")]
PLACES = {0: 1, 2: 2, 1: 3}


def test_a_table_of_three_plays_on_through_a_network_outage(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="ito3")
    table = seated_table(referee, names=NAMES[:3])
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    page = open_console(browser, live_server.url, "ito3", table)
    banner = page.get_by_test_id("sync-banner")
    # No game yet: nothing the phone could carry on with, so no promise of offline mode.
    expect(banner).to_be_hidden()

    game = GameFactory(table=table, game_number=1, seats=3, hands=HANDS, leader=0)
    page.reload()
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-state", "online")
    page.locator("#console label.card:has(input[value='3D'])").click()
    page.locator("#console").get_by_role("button", name="出す", exact=True).click()
    expect(page.get_by_test_id("turn")).to_contain_text("Baba")
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    expect(page.get_by_test_id("offline-console")).to_be_visible()
    expect(page.locator("#offline-unsupported")).to_be_hidden()
    for seat, card in OFFLINE:
        tap(page, seat, card)
    placings = page.get_by_test_id("offline-placings")
    expect(placings.locator("li")).to_have_count(3)
    for seat, place in PLACES.items():
        expect(placings.locator("li").nth(place - 1)).to_contain_text(NAMES[seat])
    shoot(page, artifacts, "offline-table-of-three")
    game.refresh_from_db()
    assert game.last_seq == 1

    page.context.set_offline(False)
    expect(banner).to_have_attribute("data-state", "synced", timeout=30_000)
    game.refresh_from_db()
    assert [(r.seq, r.payload) for r in game.moves.order_by("seq")] == [
        (seq, record_move(seat, card)) for seq, (seat, card) in enumerate(ONLINE + OFFLINE, 1)
    ]
    assert game.status == Game.Status.FINISHED
    assert dict(game.results.values_list("seat", "place")) == PLACES
