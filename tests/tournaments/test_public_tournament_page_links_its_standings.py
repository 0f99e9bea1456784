"""A visitor who opens a tournament from the public list finds its standings (and the page to
print them) on the tournament's page, without typing an address."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_the_tournament_page_links_its_live_and_printable_standings(client: Client) -> None:
    cup = TournamentFactory(slug="sendai-spring")

    html = client.get(cup.get_absolute_url()).content.decode()

    assert 'href="/standings/sendai-spring/" data-testid="standings-link"' in html
    assert 'href="/standings/sendai-spring/print/"' in html
    assert client.get("/standings/sendai-spring/").status_code == 200
