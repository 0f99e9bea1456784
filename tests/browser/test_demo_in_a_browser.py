"""A newcomer opens the demo in a real browser, finds the tournament and logs in."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_visitor_browses_the_demo_and_the_organiser_logs_in(
    page: Page, live_server: LiveServer, artifacts: Path
) -> None:
    call_command("load_demo", allow_demo_login=True, verbosity=0)

    page.goto(live_server.url)
    page.get_by_role("link", name="Kakumei Demo Cup 革命杯").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Kakumei Demo Cup 革命杯")
    expect(page.locator("tbody tr")).to_have_count(8)
    expect(page.get_by_text("Aoki Haruto")).to_be_visible()
    page.screenshot(path=str(artifacts / "demo-tournament.png"), full_page=True)

    page.get_by_role("link", name="Log in").click()
    page.get_by_label("User name").fill("organiser")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_be_visible()

    page.get_by_label("Password").fill("kakumei-demo")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out (organiser)")).to_be_visible()
    expect(page.get_by_role("link", name="Admin")).to_be_visible()
