"""The venue's Wi-Fi drops in the middle of a game: the referee's phone (Chromium, in Japanese)
goes on judging every tap with the project's own engine under Pyodide, refuses an illegal one
with the engine's message, survives a reload without a network (the service worker opens the
console, the queue is in localStorage), and when the network is back sends every move in order
— the server's log is then exactly the moves played, each once (issue #19, docs/offline.md).
A quick result recorded offline reaches the server the same way, and so does a tap whose request
was lost while the browser still believed it was online."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.engine import JDF, IllegalMove, Move, apply, new_game
from games.models import Game
from tests.browser.conftest import shoot
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Singles in rising order, no suit twice in a row (JDF locks a suit at once), no 8 (8切り).
HANDS = [
    ["3S", "7S", "QS", "4D"],
    ["4H", "9H", "5S", "AD"],
    ["5C", "TC", "KH", "6C"],
    ["6D", "2H", "9S", "7D"],
]
BEFORE_THE_OUTAGE = [(0, "3S")]
BEFORE_THE_RELOAD = [(1, "4H"), (2, "5C"), (3, "6D"), (0, "7S"), (1, "9H"), (2, "TC"), (3, None)]
# Seat 1 (Baba) then tries 5S on QS: refused on the phone, never sent.
AFTER_THE_REFUSAL = [(0, "QS"), (1, None), (2, "KH")]
AFTER_THE_RELOAD = [(0, None), (2, "6C"), (3, "7D"), (0, None), (1, "AD")]
PLAYED = BEFORE_THE_OUTAGE + BEFORE_THE_RELOAD + AFTER_THE_REFUSAL + AFTER_THE_RELOAD
NAMES = ("Aoki", "Baba", "Chiba", "Doi")
# Pyodide starts in a few seconds on a phone, in many more on this machine's headless Chromium.
ENGINE_START_MS = 90_000


def record_move(seat: int, card: str | None) -> dict[str, object]:
    return {"seat": seat, "pass": True} if card is None else {"seat": seat, "play": [card]}


def weaker_card_refusal() -> IllegalMove:
    """What the engine says to Baba's 5S on Aoki's QS: the phone must say the same."""
    state = new_game(JDF, HANDS, leader=0)
    for seat, card in PLAYED[: len(BEFORE_THE_OUTAGE) + len(BEFORE_THE_RELOAD) + 1]:
        move = Move.pass_turn(seat) if card is None else Move.play(seat, card)
        state, _ = apply(state, move)
    with pytest.raises(IllegalMove) as caught:
        apply(state, Move.play(1, "5S"))
    return caught.value


def referee_table(username: str) -> tuple[Table, User]:
    referee = UserFactory(username=username)
    table = seated_table(referee, names=NAMES)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return table, referee


def open_console(browser: Browser, origin: str, username: str, table: Table) -> Page:
    """`username`'s console of `table` on the site at `origin` (the test's live server, or the
    production-parity stage's gunicorn), in Japanese on a phone."""
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    page = context.new_page()
    # The log-in page is in Japanese too: its fields by their ids.
    page.goto(f"{origin}/accounts/login/?next=/referee/tables/{table.pk}/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill("correct horse battery")
    page.locator("form[action^='/accounts/login/'] [type=submit]").click()
    expect(page.get_by_test_id("console-seats")).to_be_visible()
    return page


def wait_until_ready_for_an_outage(page: Page) -> None:
    """The service worker keeps this page and the engine's files: the network may go."""
    expect(page.locator("#offline-root")).to_have_attribute(
        "data-kept", "yes", timeout=ENGINE_START_MS
    )
    # Online, the engine has not started: a page that never goes offline never pays for it.
    expect(page.get_by_test_id("sync-banner")).to_have_attribute("data-engine", "idle")


def go_offline(page: Page) -> None:
    """The network goes: the phone starts the engine from the files the worker kept."""
    page.context.set_offline(True)
    banner = page.get_by_test_id("sync-banner")
    expect(banner).to_have_attribute("data-engine", "ready", timeout=ENGINE_START_MS)


def tap(page: Page, seat: int, card: str | None) -> None:
    """A tap on the offline console: the seat in turn plays a card, or passes."""
    expect(page.get_by_test_id("offline-turn")).to_contain_text(NAMES[seat])
    console = page.get_by_test_id("offline-console")
    if card is not None:
        console.locator(f"label.card:has(input[value='{card}'])").click()
        console.get_by_role("button", name="出す", exact=True).click()
    else:
        console.get_by_role("button", name="パス", exact=True).click()


def test_a_referee_plays_on_through_a_network_outage(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    plays_on_through_a_network_outage(browser, live_server.url, artifacts, "offline")


def plays_on_through_a_network_outage(
    browser: Browser, origin: str, artifacts: Path, shots: str
) -> Page:
    """The whole outage at the site at `origin`, screenshots named `<shots>-…`; also run
    against the deployed stack (tests/production). Returns the console's page."""
    table, _referee = referee_table("ito")
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    page = open_console(browser, origin, "ito", table)

    # Online, the server's console plays as always.
    page.locator("#console label.card:has(input[value='3S'])").click()
    page.locator("#console").get_by_role("button", name="出す", exact=True).click()
    expect(page.get_by_test_id("turn")).to_contain_text("Baba")
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    banner = page.get_by_test_id("sync-banner")
    expect(banner).to_have_attribute("data-state", "offline")
    expect(page.get_by_test_id("offline-console")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    for seat, card in BEFORE_THE_RELOAD:
        tap(page, seat, card)
    expect(banner).to_contain_text(str(len(BEFORE_THE_RELOAD)))
    shoot(page, artifacts, f"{shots}-console")

    tap(page, 0, "QS")
    tap(page, 1, "5S")  # weaker than the queen: the engine on the phone refuses it
    refusal = weaker_card_refusal()
    error = page.get_by_test_id("offline-error")
    expect(error).to_contain_text(refusal.message_ja)
    expect(error).to_contain_text(refusal.code)
    shoot(page, artifacts, f"{shots}-console-refusal")
    tap(page, 1, None)
    tap(page, 2, "KH")

    # A reload with no network: the service worker opens the console, the queue is still there.
    page.reload()
    expect(page.get_by_test_id("offline-console")).to_be_visible()
    expect(banner).to_have_attribute("data-engine", "ready", timeout=ENGINE_START_MS)
    expect(page.get_by_test_id("offline-queue").locator("li")).to_have_count(
        len(BEFORE_THE_RELOAD) + len(AFTER_THE_REFUSAL)
    )
    for seat, card in AFTER_THE_RELOAD:
        tap(page, seat, card)
    expect(banner).to_have_attribute("data-state", "offline")
    shoot(page, artifacts, f"{shots}-banner")
    game.refresh_from_db()
    assert game.last_seq == 1  # nothing reached the server while offline

    page.context.set_offline(False)
    expect(banner).to_have_attribute("data-state", "synced", timeout=30_000)
    expect(page.get_by_test_id("turn")).to_contain_text("Doi")
    shoot(page, artifacts, f"{shots}-synced")

    game.refresh_from_db()
    rows = list(game.moves.order_by("seq"))
    assert [(r.seq, r.kind, r.payload) for r in rows] == [
        (seq, "action", record_move(seat, card)) for seq, (seat, card) in enumerate(PLAYED, 1)
    ]
    assert game.status == Game.Status.IN_PLAY
    assert not game.rejected_submissions.exists()  # the refused tap never left the phone
    return page


def test_a_quick_result_recorded_offline_is_sent_when_the_network_is_back(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    table, referee = referee_table("sato")
    game = services.start_game(table, referee, mode=Game.Mode.QUICK)
    page = open_console(browser, live_server.url, "sato", table)
    expect(page.get_by_test_id("quick-form")).to_be_visible()
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    form = page.get_by_test_id("offline-quick-form")
    for seat, outcome in enumerate(("clean-2", "clean-1", "foul-1", "clean-3")):
        form.locator(f"select[name='outcome_{seat}']").select_option(outcome)
    form.get_by_role("button").click()
    banner = page.get_by_test_id("sync-banner")
    expect(banner).to_contain_text("1")
    shoot(page, artifacts, "offline-quick-result")

    page.context.set_offline(False)
    expect(banner).to_have_attribute("data-state", "synced", timeout=30_000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    places = {r.seat: r.place for r in game.results.all()}
    assert places == {1: 1, 0: 2, 3: 3, 2: 4}


def test_a_tap_that_never_reached_the_server_is_judged_and_kept(
    browser: Browser, live_server: LiveServer
) -> None:
    """The browser still believes it is online, but the tap's request is lost on the way: the
    phone judges and keeps it rather than showing the generic error, and sends it on request."""
    table, _referee = referee_table("ito")
    game = GameFactory(table=table, game_number=1, hands=HANDS, leader=0)
    page = open_console(browser, live_server.url, "ito", table)
    wait_until_ready_for_an_outage(page)

    play_url = f"**/referee/tables/{table.pk}/play/"
    page.route(play_url, lambda route: route.abort("internetdisconnected"))
    page.locator("#console label.card:has(input[value='3S'])").click()
    page.locator("#console").get_by_role("button", name="出す", exact=True).click()
    # The engine starts now, from the kept files, and judges the tap that did not get through.
    expect(page.get_by_test_id("offline-queue").locator("li")).to_have_count(
        1, timeout=ENGINE_START_MS
    )
    expect(page.locator("#htmx-error")).to_be_hidden()
    banner = page.get_by_test_id("sync-banner")
    expect(banner).to_have_attribute("data-state", "waiting")
    page.unroute(play_url)

    banner.get_by_role("button").click()
    expect(banner).to_have_attribute("data-state", "synced", timeout=30_000)
    assert [(r.seq, r.payload) for r in game.moves.order_by("seq")] == [
        (1, {"seat": 0, "play": ["3S"]})
    ]
