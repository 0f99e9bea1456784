"""A referee runs a 大財閥 game on a phone-sized Chromium: the table's state and every hand fit
the screen, a 7's gift is two taps (a card, then Give), a 2's target one tap (a seat button),
倍返し one of two buttons; the public live page shows the hand a 6 opened and no other.
Screenshots at phone and desktop size under test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game, Move
from tests.factories import UserFactory, daizaibatsu_game, daizaibatsu_table

from .conftest import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Seat 1 opens its hand with a 6 (rule 6), seat 2 gives with a 7 (rule 7), seat 3 names who
# draws with a 2 (rule 15); seat 1 holds a joker and doubles it back (倍返し).
HANDS = [
    ["6C", "JK", "4D", "9S", "QH", "KD", "AS", "3D", "TC", "8H", "5S", "JD", "QC"],
    ["7D", "KS", "5H", "8C", "9D", "TS", "JC", "QD", "AH", "3S", "4C", "6H", "KH"],
    ["2S", "8D", "TD", "QS", "3C", "4H", "5C", "6S", "7S", "9C", "JH", "KC", "AD"],
    ["3H", "AC", "4S", "5D", "6D", "7C", "7H", "8S", "9H", "TH", "JS", "QS", "KS"],
]
PILE = ["2C", "2D", "2H", "3C", "4H", "5C", "6S", "9C", "AD", "TH"]


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """Both sizes, the page never wider than the screen; left at phone size."""
    for size, label in ((PHONE, "390"), (DESKTOP, "1280")):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        page.screenshot(path=str(artifacts / f"daizaibatsu-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def tap_card(page: Page, form: str, code: str) -> None:
    page.locator(f"[data-testid={form}] label.card:has(input[value='{code}'])").first.click()


def test_a_referee_plays_daizaibatsu_on_a_phone(
    page: Page, browser: Browser, live_server: LiveServer, artifacts: Path
) -> None:
    referee = UserFactory(username="dz-ref")
    table = daizaibatsu_table(referee)
    game: Game = daizaibatsu_game(table, HANDS, PILE, leader=0)
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "dz-ref", f"/referee/tables/{table.pk}/")
    expect(page.get_by_test_id("dz-direction")).to_contain_text("1 → 2 → 3 → 4")
    expect(page.get_by_test_id("pile-top")).to_be_visible()
    shoot(page, artifacts, "console-start")

    tap_card(page, "turn-form", "6C")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.get_by_test_id("open-1")).to_be_visible()

    tap_card(page, "turn-form", "7D")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.get_by_test_id("decision-question")).to_contain_text(
        "Seat 2 (Baba): choose 1 card to give to Chiba"
    )
    tap_card(page, "decision-give-2", "KS")
    shoot(page, artifacts, "give")
    page.get_by_test_id("confirm-give").click()
    expect(page.get_by_test_id("turn-form")).to_contain_text("Chiba")

    tap_card(page, "turn-form", "2S")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.get_by_test_id("decision-question")).to_contain_text("choose who draws 2")
    expect(page.get_by_test_id("target-draws")).to_be_visible()
    shoot(page, artifacts, "target")
    # The same console in Japanese: the question and the game words.
    japanese = browser.new_context(locale="ja-JP", viewport=PHONE)
    ja = japanese.new_page()
    ja.goto(f"{live_server.url}/accounts/login/?next=/referee/tables/{table.pk}/")
    ja.locator("input[name=username]").fill("dz-ref")
    ja.locator("input[name=password]").fill("correct horse battery")
    ja.locator("form button[type=submit]").last.click()
    expect(ja.get_by_test_id("decision-question")).to_contain_text(
        "3番席（Chiba）：2枚引く人を選んでください"
    )
    expect(ja.get_by_test_id("dz-pile")).to_contain_text("補充0回")
    shoot(ja, artifacts, "target-ja")
    japanese.close()
    page.get_by_test_id("target-1").click()

    expect(page.get_by_test_id("decision-question")).to_contain_text("倍返し")
    shoot(page, artifacts, "double-back")
    page.get_by_test_id("double-back").click()
    expect(page.get_by_test_id("turn-form")).to_be_visible()
    shoot(page, artifacts, "after-double-back")

    payloads = [m.payload for m in Move.objects.filter(game=game).order_by("seq")]
    assert payloads == [
        {"seat": 0, "play": ["6C"]},
        {"seat": 1, "play": ["7D"]},
        {"seat": 1, "give": ["KS"]},
        {"seat": 2, "play": ["2S"]},
        {"seat": 2, "choice": {"target": 0}},
        {"seat": 0, "choice": "double_back"},
    ]

    public = page.context.new_page()
    public.set_viewport_size(PHONE)
    public.goto(f"{live_server.url}/tables/{table.pk}/live/")
    expect(public.get_by_test_id("open-hand")).to_have_count(1)
    expect(public.get_by_test_id("live-seat-1")).to_contain_text("♥Q")
    expect(public.get_by_test_id("live-seat-2")).not_to_contain_text("♥5")
    expect(public.locator(".events")).to_contain_text("Chiba named Aoki to draw")
    expect(public.locator(".events")).to_contain_text("Baba gave 1 card to Chiba")
    shoot(public, artifacts, "live")
