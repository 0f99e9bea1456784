"""Playwright drives Debian's Chromium (never a downloaded one) against the live test server."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

# Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; ./dev test installs Debian's chromium package")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        # Without the network-quieting flags Chromium floods this machine's closed network.
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }  # fmt: skip


# The two sizes every page is looked at in: a phone and a laptop.
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """The page as it is now, at desktop and at phone size, left at desktop size."""
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def log_in(page: Page, base: str, username: str, next_url: str) -> None:
    """Sign in on the login page (factory users' password) and go on to `next_url`."""
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
