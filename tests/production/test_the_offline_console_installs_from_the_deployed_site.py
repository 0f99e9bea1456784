"""Deployed, the referee console installs on a phone (Chromium, in Japanese): its service
worker registers for /referee/ from gunicorn and keeps every file under its versioned cache,
the web app manifest it links loads, and the console plays on through a network outage and
syncs when the network is back — the browser test of the outage
(tests/browser/test_a_referee_plays_on_through_a_network_outage.py), pointed at this stack.
With `DEBUG=False` the worker once answered 500, so the console could never install."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.test_a_referee_plays_on_through_a_network_outage import (
    plays_on_through_a_network_outage,
)
from tests.production.conftest import Production

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INSTALLED = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/referee/");
  const link = document.querySelector("link[rel=manifest]");
  const manifest = link ? await (await fetch(link.href)).json() : null;
  return {
    worker: registration && registration.active ? registration.active.scriptURL : null,
    scope: registration ? registration.scope : null,
    controlled: navigator.serviceWorker.controller !== null,
    caches: await caches.keys(),
    manifest: manifest && manifest.name,
  };
}"""


def test_the_console_installs_and_plays_on_offline(
    production: Production, browser: Browser, artifacts: Path
) -> None:
    page = plays_on_through_a_network_outage(
        browser, production.origin, artifacts, "production-offline"
    )

    installed = page.evaluate(INSTALLED)
    assert installed["worker"] == production.origin + "/referee/sw.js"
    assert installed["scope"] == production.origin + "/referee/"
    assert installed["controlled"]
    assert [name for name in installed["caches"] if name.startswith("kakumei-offline-")]
    assert installed["manifest"] == "革命 審判"
