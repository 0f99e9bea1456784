"""Deployed, the 403, 404 and 500 pages are the site's own (styled by the collected, hashed
stylesheet, saying what to do next) and speak Japanese to a browser that asks for nothing in
particular, as most phones at a venue do. The 403 is a referee signed in through the login form
opening another referee's table."""

from __future__ import annotations

import re

import pytest

from tests.games.conftest import Crew
from tests.games.conftest import crew as crew  # the referee crew fixture, shared
from tests.production.conftest import Production, Visitor
from tests.production.urls import PURPOSEFUL_ERROR, SERVER_ERROR_PATH

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


def styled_in_japanese(page: str) -> bool:
    return '<html lang="ja">' in page and bool(
        re.search(r'href="/static/kakumei/site\.[0-9a-f]{12}\.css"', page)
    )


def test_403_in_japanese(production: Production, crew: Crew) -> None:
    visitor = Visitor(production.origin)
    visitor.log_in(crew.other_referee.username, PASSWORD)

    status, page = visitor.get(crew.table.get_referee_url())

    assert status == 403
    assert styled_in_japanese(page)
    assert "この操作は許可されていません" in page and "Not allowed here" not in page
    assert "戻る" in page


def test_404_in_japanese(production: Production) -> None:
    status, page = Visitor(production.origin).get("/tournaments/no-such-cup/")

    assert status == 404
    assert styled_in_japanese(page)
    assert "ページが見つかりません" in page and "Page not found" not in page
    assert "大会一覧から探してください" in page


def test_500_in_japanese(production: Production) -> None:
    status, page = Visitor(production.origin).get(SERVER_ERROR_PATH)

    assert status == 500
    assert styled_in_japanese(page)
    assert "サーバーでエラーが発生しました" in page and "紙の記録用紙" in page
    assert "Traceback" not in page and "RuntimeError" not in page  # DEBUG is off
    # The error reached the log, as the page promises.
    assert PURPOSEFUL_ERROR in production.log_path("gunicorn").read_text()
