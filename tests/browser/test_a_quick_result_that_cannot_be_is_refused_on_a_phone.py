"""Issue #35's bug, on a referee's phone (Chromium, in Japanese, 390×844): at a table of three,
the referee picks 3, 3, 1 on the quick-result form. The console refuses it — the players named,
the place in the form's own words, the code — keeps the choices to be put right and saves
nothing; offline, the phone refuses the same form with the same words and queues nothing, so
nothing reaches the server when the network is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game
from tests.browser.test_a_referee_plays_on_through_a_network_outage import (
    go_offline,
    open_console,
    wait_until_ready_for_an_outage,
)
from tests.factories import OfficialFactory, UserFactory, seated_table
from tournaments.models import Official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THREE_THREE_ONE = ("clean-3", "clean-3", "clean-1")
REFUSAL = (
    "1番席（Aoki）と2番席（Baba）が同じ「3. あがり／残り」になっています。順位は一人ずつです。"
    "保存していません。"
)


def three_seat_quick_game(username: str) -> Game:
    referee = UserFactory(username=username)
    table = seated_table(referee, names=("Aoki", "Baba", "Chiba"))
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return services.start_game(table, referee, mode=Game.Mode.QUICK)


def choose(form: object, outcomes: tuple[str, ...]) -> None:
    for seat, outcome in enumerate(outcomes):
        form.locator(f"select[name='outcome_{seat}']").select_option(outcome)  # type: ignore[attr-defined]


def test_the_console_refuses_three_three_one_and_keeps_the_choices(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    game = three_seat_quick_game("quick-ja")
    page: Page = open_console(browser, live_server.url, "quick-ja", game.table)
    form = page.get_by_test_id("quick-form")

    choose(form, THREE_THREE_ONE)
    form.get_by_role("button").click()

    alert = page.locator("#console .error[role=alert]")
    expect(alert).to_contain_text(REFUSAL)
    expect(alert.locator("code")).to_have_text("quick_duplicate_place")
    form = page.get_by_test_id("quick-form")
    for seat, outcome in enumerate(THREE_THREE_ONE):
        expect(form.locator(f"select[name='outcome_{seat}']")).to_have_value(outcome)
    page.screenshot(path=str(artifacts / "quick-three-three-one-refused-phone.png"), full_page=True)
    game.refresh_from_db()
    assert (game.status, game.result_version, game.results.count()) == (Game.Status.IN_PLAY, 0, 0)


def test_the_offline_console_refuses_it_with_the_same_words_and_queues_nothing(
    browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    game = three_seat_quick_game("quick-offline")
    page = open_console(browser, live_server.url, "quick-offline", game.table)
    expect(page.get_by_test_id("quick-form")).to_be_visible()
    wait_until_ready_for_an_outage(page)

    go_offline(page)
    form = page.get_by_test_id("offline-quick-form")
    choose(form, THREE_THREE_ONE)
    form.get_by_role("button").click()

    error = page.get_by_test_id("offline-error")
    expect(error).to_contain_text(REFUSAL)
    expect(error.locator("code")).to_have_text("quick_duplicate_place")
    form = page.get_by_test_id("offline-quick-form")
    for seat, outcome in enumerate(THREE_THREE_ONE):
        expect(form.locator(f"select[name='outcome_{seat}']")).to_have_value(outcome)
    expect(page.get_by_test_id("offline-queue")).to_be_hidden()
    page.screenshot(path=str(artifacts / "quick-three-three-one-offline-phone.png"), full_page=True)

    page.context.set_offline(False)
    expect(page.get_by_test_id("sync-banner")).not_to_have_attribute("data-state", "offline")
    game.refresh_from_db()
    assert (game.status, game.result_version, game.results.count()) == (Game.Status.IN_PLAY, 0, 0)
    assert not game.rejected_submissions.exists()  # nothing was sent to be refused
