"""Deployed, every page of a tournament in mid-event (the scene of
tests/browser/test_offline_venue.py) loads in Chromium for the public, a referee and an
organiser with nothing from another host, no missing static file, no console error and no 5xx:
the venue crawl, pointed at the stack. Under the manifest storage of production a page that
names a static file `collectstatic` did not collect answers 500, which the development
configuration never shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.test_offline_venue import VIEWERS, Venue, crawl_the_venue
from tests.browser.test_offline_venue import venue as venue  # the scene, shared
from tests.production.conftest import Production

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_page_loads_everything_from_the_deployed_site(
    production: Production, browser: Browser, venue: Venue
) -> None:
    crawl_the_venue(browser, production.origin, venue, VIEWERS)
