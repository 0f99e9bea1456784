"""Venues are often offline: the API documentation page loads its script from this server and
no web fonts (drf-spectacular's Redoc page asks Google Fonts for them)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_api_docs_page_loads_nothing_from_another_host(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()

    assert 'id="redoc-container"' in html or "<redoc" in html
    outside = re.findall(r'(?:src|href)="((?:https?:)?//[^"]+)"', html)
    assert outside == []
    assert "fonts.googleapis.com" not in html


def test_every_page_has_the_favicon(client: Client) -> None:
    for path in ("/", "/api/docs/", "/accounts/login/"):
        assert "/static/kakumei/favicon.svg" in client.get(path).content.decode(), path
