"""403, 404 and 500 pages are styled, bilingual and say what to do next; a PermissionDenied
written for people is shown as it is; htmx requests get a compact partial (swapped into their
target by base.html's rule) rather than a whole page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import browser
from tests.games import conftest as games_conftest
from tests.games.conftest import Crew

pytestmark = pytest.mark.django_db

crew = games_conftest.crew  # the referee crew fixture, shared


def test_another_referees_table_says_ask_the_head_referee(crew: Crew) -> None:
    client = browser()
    client.force_login(crew.other_referee)
    response = client.get(crew.table.get_referee_url())
    assert response.status_code == 403
    html = response.content.decode()
    assert "<html" in html and "site.css" in html
    assert "This table belongs to another referee" in html
    assert "主審に確認してください" in html
    assert "Not allowed here" in html and "許可されていません" in html


def test_an_htmx_request_gets_the_error_partial(crew: Crew) -> None:
    client = browser()
    client.force_login(crew.other_referee)
    response = client.post(
        reverse("referee:start", args=[crew.table.pk]), {"mode": "quick"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert "<html" not in html
    assert 'role="alert"' in html and "another referee" in html


def test_a_bare_permission_denied_gets_the_generic_guidance(client: Client) -> None:
    from django.contrib.auth.models import User

    user = User.objects.create_user("nobody", password="x")
    client.force_login(user)
    response = client.post(reverse("organiser:home"), {"name": "x"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "ask the head referee or the organiser" in html
    assert 'data-testid="error-message"' not in html


def test_404_is_styled_and_bilingual(client: Client) -> None:
    response = client.get("/tournaments/no-such-cup/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and "ページが見つかりません" in html
    assert "site.css" in html and reverse("tournaments:list") in html
    assert "No Tournament matches" not in html
    partial = client.get("/tournaments/no-such-cup/", HTTP_HX_REQUEST="true")
    assert partial.status_code == 404 and "<html" not in partial.content.decode()


def test_500_page_renders_without_a_request_context() -> None:
    from django.test import RequestFactory

    from config.errors import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "サーバーでエラーが発生しました" in html and "paper score sheet" in html


def test_the_handlers_are_installed() -> None:
    from config import urls

    assert urls.handler403 == "config.errors.permission_denied"
    assert urls.handler404 == "config.errors.page_not_found"
    assert urls.handler500 == "config.errors.server_error"
