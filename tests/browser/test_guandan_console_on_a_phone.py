"""A referee runs a Guandan hand on a phone-sized Chromium: 27 cards laid out by rank fit the
screen without scrolling sideways, an ambiguous wild is declared from the picker, passes go
round; the tribute, the quick form and the public live page are drawn at phone and desktop
size (screenshots under test-artifacts/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.engine.guandan import Match, deal_hands, find_guandan
from games.engine.multideck import multi_names
from games.models import Game
from tests.factories import UserFactory, console_guandan_hand, console_guandan_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
STRAIGHT = ["2H", "5S", "6D", "7C", "8H"]  # with ♥2 wild: a straight 4–8 or 5–9


def dealt_with(seat: int, wanted: list[str], seed: str = "gd-console-browser") -> list[list[str]]:
    """A full deal (27 each) in which `seat` holds `wanted`: each card missing there is swapped
    with one of the seat's own cards from the seat that holds it."""
    hands = [multi_names(h) for h in deal_hands(seed, find_guandan("guandan-cn"))]
    for card in wanted:
        if hands[seat].count(card) >= wanted.count(card):
            continue
        giver = next(s for s in range(4) if s != seat and card in hands[s])
        spare = next(c for c in hands[seat] if c not in wanted and c not in hands[giver])
        hands[seat].remove(spare)
        hands[giver].remove(card)
        hands[seat].append(card)
        hands[giver].append(spare)
    return hands


def sign_in(page: Page, live_server: LiveServer, next_url: str, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """Both sizes, the page never wider than the screen."""
    for size, label in ((PHONE, "390"), (DESKTOP, "1280")):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        page.screenshot(path=str(artifacts / f"guandan-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def test_a_referee_plays_guandan_on_a_phone(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="gd-ref")
    table = console_guandan_table(referee, teams=("Sakura", "Momiji"))
    game = console_guandan_hand(table, hands=dealt_with(0, STRAIGHT))
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, f"/referee/tables/{table.pk}/", "gd-ref")
    expect(page.get_by_test_id("turn")).to_contain_text("Aoki")
    expect(page.get_by_test_id("hand").locator("label.card")).to_have_count(27)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, artifacts, "console-start")

    for code in STRAIGHT:
        page.locator(f"[data-testid=hand] label.card:has(input[value='{code}'])").first.click()
    expect(page.get_by_test_id("selection")).to_contain_text("straight 5–9")
    page.get_by_role("button", name="Play", exact=True).click()
    picker = page.get_by_test_id("declaration-picker")
    expect(picker.get_by_test_id("reading")).to_have_count(2)
    shoot(page, artifacts, "declaration-picker")

    picker.get_by_role("button", name="straight 5–9").click()
    expect(page.get_by_test_id("turn")).to_contain_text("Baba")
    expect(page.get_by_test_id("trick")).to_contain_text("straight 5–9 by Aoki")
    for name in ("Chiba", "Doi", "Aoki"):
        page.get_by_role("button", name="Pass", exact=True).click()
        expect(page.get_by_test_id("turn")).to_contain_text(name)
    expect(page.get_by_test_id("trick")).to_contain_text("Empty")
    shoot(page, artifacts, "console-mid-hand")
    game.refresh_from_db()
    assert game.last_seq == 4

    page.get_by_role("button", name="日本語").click()
    expect(page.get_by_test_id("level-played")).to_contain_text("2級")
    shoot(page, artifacts, "console-ja")

    page.goto(f"{live_server.url}/tables/{table.pk}/live/")
    expect(page.get_by_test_id("live-turn")).to_contain_text("Aoki")
    expect(page.get_by_test_id("live-levels")).to_contain_text("Sakura")
    expect(page.get_by_test_id("live-levels")).to_contain_text("2級")
    shoot(page, artifacts, "live")


def test_the_tribute_and_the_quick_form_fit_a_phone(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="gd-ref2")
    table = console_guandan_table(referee)
    hands = dealt_with(0, [])
    if hands[3].count("BJ") == 2:  # no anti-tribute here
        hands[3][hands[3].index("BJ")], hands[1][0] = hands[1][0], "BJ"
    console_guandan_hand(table, hands=hands, match=Match(levels=(4, 2), previous=(0, 1, 2, 3)))
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, f"/referee/tables/{table.pk}/", "gd-ref2")

    tribute = page.get_by_test_id("tribute-tribute-4")
    expect(tribute).to_be_visible()
    shoot(page, artifacts, "tribute")
    tribute.locator("label.card").first.click()
    tribute.get_by_role("button", name="Pay tribute").click()
    expect(page.get_by_test_id("tribute-return-1")).to_be_visible()
    shoot(page, artifacts, "tribute-return")

    quick_table = console_guandan_table(referee)
    console_guandan_hand(quick_table, mode="quick")
    page.goto(f"{live_server.url}/referee/tables/{quick_table.pk}/")
    expect(page.get_by_test_id("quick-form")).to_be_visible()
    shoot(page, artifacts, "quick-form")
    assert Game.objects.filter(table=quick_table).count() == 1
