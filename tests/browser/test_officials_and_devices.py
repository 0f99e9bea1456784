"""An organiser adds a referee and prints their PIN card; in a second browser the referee signs
in with the PIN, lands on their page, sees their table and opens its console; the organiser
issues a table's device token and sees its QR code — in Chromium, at phone and desktop size."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import DeviceToken
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.factories import EntryFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def published_round() -> Round:
    organiser = UserFactory(username="kato", first_name="Kato Rin", is_staff=True)
    cup = services.create_tournament_from_preset(
        actor=organiser, name="Sendai Open 仙台オープン", slug="sendai"
    )
    cup.status = Tournament.Status.REGISTRATION
    cup.save()
    names = ("Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii", "Goto", "Hara")
    for number, name in enumerate(names, start=1):
        EntryFactory(
            tournament=cup, number=number, player__display_name=name, status=Entry.Status.CHECKED_IN
        )
    round_ = services.draw_round(cup.stages.get(), organiser)
    services.publish_round(round_, organiser)
    return round_


def test_a_referee_added_on_the_page_signs_in_with_a_pin_card_and_finds_their_table(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path, published_round: Round
) -> None:
    base = live_server.url
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("User name").fill("kato")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{base}/organiser/")

    # 1. Add a referee on the officials page.
    page.get_by_role("link", name="Sendai Open 仙台オープン").click()
    page.get_by_test_id("officials-link").click()
    form = page.get_by_test_id("add-official")
    form.get_by_label("Name", exact=True).fill("Ito Hana")
    form.get_by_label("Role").select_option("referee")
    form.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_test_id("officials-done")).to_contain_text("sendai-1")
    expect(page.get_by_test_id("official-row")).to_have_count(2)
    shoot(page, artifacts, "officials-page")

    # 2. Give the referee table 2 on the round page (bulk form).
    page.goto(f"{base}/organiser/sendai/rounds/{published_round.pk}/")
    assign = page.get_by_test_id("assign-referees")
    assign.get_by_test_id("bulk-referee").select_option(label="Ito Hana (sendai-1)")
    assign.get_by_label("Table 2").check()
    assign.get_by_test_id("assign-referees-button").click()
    expect(page.get_by_text("Referee of table 2: Ito Hana")).to_be_visible()
    table = published_round.tables.get(number=2)
    assert table.referee is not None and table.referee.username == "sendai-1"

    # 3. Print their PIN card (it opens in a new tab).
    page.goto(f"{base}/organiser/sendai/officials/")
    with page.context.expect_page() as new_tab:
        page.get_by_role("button", name="PIN card for sendai-1").click()
    card_page = new_tab.value
    card_page.wait_for_load_state()
    card = card_page.get_by_test_id("pin-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Ito Hana")
    username = card_page.get_by_test_id("pin-card-username").inner_text()
    pin = card_page.get_by_test_id("pin-card-pin").inner_text()
    assert username == "sendai-1" and len(pin.replace(" ", "")) == 8
    shoot(card_page, artifacts, "pin-card")
    sign_in_url = card_page.locator(".pin-card-url").inner_text()
    card_page.close()

    # 4. The referee, on their own phone, scans the card and types the PIN.
    phone = browser.new_context(viewport=PHONE)
    referee_page = phone.new_page()
    referee_page.goto(sign_in_url)
    expect(referee_page.get_by_label("Sign-in name")).to_have_value("sendai-1")
    referee_page.get_by_label("PIN (8 digits)").fill("00000000")
    referee_page.get_by_role("button", name="Sign in", exact=True).click()
    expect(referee_page.get_by_test_id("sign-in-refused")).to_be_visible()
    referee_page.get_by_label("PIN (8 digits)").fill(pin)
    referee_page.get_by_role("button", name="Sign in", exact=True).click()
    expect(referee_page).to_have_url(f"{base}/referee/")
    expect(referee_page.get_by_test_id("my-table")).to_have_count(1)
    expect(referee_page.get_by_test_id("my-table")).to_contain_text("Table 2")
    expect(referee_page.get_by_test_id("my-table")).to_contain_text("Not started")
    shoot(referee_page, artifacts, "referee-home")
    referee_page.get_by_role("link", name="Table 2").click()
    expect(referee_page.get_by_role("heading", level=1)).to_contain_text("Table 2")
    referee_page.set_viewport_size(PHONE)
    referee_page.screenshot(path=str(artifacts / "referee-home-console-phone.png"))
    phone.close()

    # 5. A sign-in link instead: shown once with its QR code; opening it only asks.
    page.goto(f"{base}/organiser/sendai/officials/")
    page.get_by_role("button", name="Sign-in link for sendai-1").click()
    link = page.get_by_test_id("sign-in-url").input_value()
    assert "/accounts/link/" in link
    shoot(page, artifacts, "officials-sign-in-link")
    other_phone = browser.new_context(viewport=PHONE)
    link_page = other_phone.new_page()
    link_page.goto(link)
    expect(link_page.get_by_role("heading", level=1)).to_contain_text("Sign in as Ito Hana")
    shoot(link_page, artifacts, "sign-in-link")
    link_page.get_by_test_id("sign-in-button").click()
    expect(link_page).to_have_url(f"{base}/referee/")
    link_page.goto(link)
    expect(link_page.get_by_test_id("sign-in-refused")).to_contain_text("has been used")
    other_phone.close()

    # 6. The organiser issues a token for table 1's scorer tablet: shown once, with a QR code.
    page.goto(f"{base}/organiser/sendai/devices/")
    table_form = page.get_by_test_id("issue-table-device")
    table_form.get_by_label("Table number").fill("1")
    table_form.get_by_label("Device name").fill("Table 1 tablet")
    table_form.get_by_role("button", name="Issue token").click()
    expect(page.get_by_test_id("token-qr").locator("svg")).to_be_visible()
    raw = page.get_by_test_id("raw-token").input_value()
    assert raw.startswith("kk_")
    token = DeviceToken.objects.get(name="Table 1 tablet")
    assert token.table_number == 1 and token.key_hash != raw
    expect(page.get_by_test_id("device-row")).to_contain_text("Table 1")
    shoot(page, artifacts, "devices-page")
