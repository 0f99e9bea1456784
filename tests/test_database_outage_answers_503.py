"""A database that cannot be reached (a restart, a failover, a dead host) is not a bug: the API
answers 503 in its error shape with `Retry-After`, pages a 503 page that says to try again —
never a 500 or an HTML error under /api/. The connection really points at a closed port."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client


@pytest.fixture
def database_unreachable(django_db_blocker: Any) -> Iterator[None]:
    """The default connection, pointed at a local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    saved = connection.settings_dict
    with django_db_blocker.unblock():
        connection.close()
        connection.settings_dict = {**saved, "HOST": "127.0.0.1", "PORT": str(closed_port)}
        try:
            yield
        finally:
            connection.close()
            connection.settings_dict = saved


@pytest.fixture
def visitor() -> Client:
    # Django's test client re-raises a view's exception by default; a server answers it.
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ja")


def assert_503_json(response: Any) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "database_unavailable"
    assert body["detail"] is None
    assert "データベース" in body["message_ja"] and "database" in body["message_en"]


def test_api_reads_answer_503_with_retry_after(database_unreachable: None, visitor: Client) -> None:
    assert_503_json(visitor.get("/api/tournaments/"))
    assert_503_json(visitor.get("/api/tables/1/live/"))


def test_a_device_whose_token_cannot_be_checked_gets_503(
    database_unreachable: None, visitor: Client
) -> None:
    response = visitor.post(
        "/api/games/1/moves/",
        {"seq": 1, "move": {"seat": 0, "pass": True}},
        content_type="application/json",
        HTTP_AUTHORIZATION="Token kk_some-device",
    )

    assert_503_json(response)


def test_a_page_answers_a_503_page_with_retry_after(
    database_unreachable: None, visitor: Client
) -> None:
    response = visitor.get("/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "データベースに接続できません" in response.content.decode()
