"""The public standings pages (the whole tournament, and each stage) link to their printable
page, which answers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from .conftest import Cup

pytestmark = pytest.mark.django_db


def _print_link(html: str) -> str:
    found = re.search(r'<a href="([^"]+)" data-testid="print-link">[^<]+</a>', html)
    assert found, "no print link"
    return found.group(1)


def test_the_tournament_board_links_to_its_print_page(client: Client, cup: Cup) -> None:
    html = client.get(f"/standings/{cup.tournament.slug}/").content.decode()

    url = _print_link(html)

    assert url == f"/standings/{cup.tournament.slug}/print/"
    assert client.get(url).status_code == 200
    assert '<a href="' + url + '" data-testid="print-link">Print</a>' in html


def test_the_boards_and_print_page_speak_japanese_to_a_japanese_browser(
    client_ja: Client, cup: Cup
) -> None:
    board = client_ja.get(f"/standings/{cup.tournament.slug}/").content.decode()
    printed = client_ja.get(f"/standings/{cup.tournament.slug}/print/").content.decode()

    assert 'data-testid="print-link">印刷</a>' in board and ">Print</a>" not in board
    assert "大会全体" in board and "Whole tournament" not in board
    assert "順位表に戻る" in printed and "Back to the live standings" not in printed


def test_a_stage_board_links_to_the_stage_print_page(client: Client, cup: Cup) -> None:
    html = client.get(f"/standings/{cup.tournament.slug}/stage/{cup.stage.pk}/").content.decode()

    url = _print_link(html)

    assert url == f"/standings/{cup.tournament.slug}/stage/{cup.stage.pk}/print/"
    assert client.get(url).status_code == 200
