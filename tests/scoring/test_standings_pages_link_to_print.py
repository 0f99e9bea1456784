"""The public standings pages (the whole tournament, and each stage) link to their printable
page, which answers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from .conftest import Cup

pytestmark = pytest.mark.django_db


def _print_link(html: str) -> str:
    found = re.search(r'<a href="([^"]+)" data-testid="print-link">Print 印刷用</a>', html)
    assert found, "no print link"
    return found.group(1)


def test_the_tournament_board_links_to_its_print_page(client: Client, cup: Cup) -> None:
    html = client.get(f"/standings/{cup.tournament.slug}/").content.decode()

    url = _print_link(html)

    assert url == f"/standings/{cup.tournament.slug}/print/"
    assert client.get(url).status_code == 200


def test_a_stage_board_links_to_the_stage_print_page(client: Client, cup: Cup) -> None:
    html = client.get(f"/standings/{cup.tournament.slug}/stage/{cup.stage.pk}/").content.decode()

    url = _print_link(html)

    assert url == f"/standings/{cup.tournament.slug}/stage/{cup.stage.pk}/print/"
    assert client.get(url).status_code == 200
