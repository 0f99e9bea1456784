"""403, 404 and 500 pages are styled, speak the page's language and say what to do next; a
PermissionDenied written for people is shown as it is; htmx requests get a compact partial
(swapped into their target by base.html's rule) rather than a whole page."""

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
    assert "Not allowed here" in html and "許可されていません" not in html


def test_the_403_page_speaks_japanese_to_a_japanese_browser(crew: Crew) -> None:
    client = browser("ja")
    client.force_login(crew.other_referee)
    html = client.get(crew.table.get_referee_url()).content.decode()
    assert "この操作は許可されていません" in html and "Not allowed here" not in html
    assert "戻る" in html and "Go back" not in html


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


def test_404_is_styled_and_in_the_pages_language(client: Client, client_ja: Client) -> None:
    response = client.get("/tournaments/no-such-cup/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and "ページが見つかりません" not in html
    japanese = client_ja.get("/tournaments/no-such-cup/").content.decode()
    assert "ページが見つかりません" in japanese and "Page not found" not in japanese
    assert "大会一覧から探してください" in japanese and "Go back" not in japanese
    assert "site.css" in html and reverse("tournaments:list") in html
    assert "No Tournament matches" not in html
    partial = client.get("/tournaments/no-such-cup/", HTTP_HX_REQUEST="true")
    assert partial.status_code == 404 and "<html" not in partial.content.decode()
    assert "Page not found" in partial.content.decode()
    partial_ja = client_ja.get("/tournaments/no-such-cup/", HTTP_HX_REQUEST="true")
    assert "ページが見つかりません" in partial_ja.content.decode()
    assert "Page not found" not in partial_ja.content.decode()


def test_500_page_renders_without_a_request_context() -> None:
    from django.test import RequestFactory
    from django.utils import translation

    from config.errors import server_error

    # The handler runs after LocaleMiddleware activated the request's language.
    with translation.override("en"):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "paper score sheet" in html and "サーバーでエラーが発生しました" not in html
    assert '<html lang="en">' in html
    with translation.override("ja"):
        japanese = server_error(RequestFactory().get("/")).content.decode()
    assert "サーバーでエラーが発生しました" in japanese and "紙の記録用紙" in japanese
    assert "paper score sheet" not in japanese and '<html lang="ja">' in japanese


def test_a_server_error_in_a_view_gets_the_500_page_in_the_browsers_language() -> None:
    from unittest import mock

    from django.test import Client as RawClient

    client = RawClient(headers={"accept-language": "ja"}, raise_request_exception=False)
    with mock.patch(
        "tournaments.views.public_tournaments", side_effect=RuntimeError("database down")
    ):
        response = client.get("/tournaments/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "サーバーでエラーが発生しました" in html and "Something went wrong" not in html


def test_the_handlers_are_installed() -> None:
    from config import urls

    assert urls.handler403 == "config.errors.permission_denied"
    assert urls.handler404 == "config.errors.page_not_found"
    assert urls.handler500 == "config.errors.server_error"
