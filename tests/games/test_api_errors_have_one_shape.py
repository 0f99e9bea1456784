"""Every error the API answers — its own refusals and DRF's (401, 403, 404, 405, 415, 429, a
bad field, an unreadable body) — is one JSON shape, `{code, message_en, message_ja, detail}`,
with a stable code and the message in both languages; 401 still names the token scheme and 429
says how long to wait."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client
from rest_framework.exceptions import NotAcceptable, Throttled

from config.api_errors import exception_handler
from games.auth import issue_device_token
from games.models import Game

from .conftest import T17_MOVES, Crew

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def one_shape(status: int, body: dict[str, Any], code: str) -> dict[str, Any]:
    assert {"code", "message_en", "message_ja", "detail"} <= body.keys(), body
    assert (status, body["code"]) == (status, code)
    assert body["message_en"] and JAPANESE.search(body["message_ja"]), body
    return body


@pytest.mark.django_db
def test_drf_refusals_come_in_the_one_shape(client: Client, crew: Crew, t17_game: Game) -> None:
    moves = f"/api/games/{t17_game.pk}/moves/"
    move = {"seq": 1, "move": T17_MOVES[0]}
    _, raw = issue_device_token(crew.referee, "phone")
    referee = {"HTTP_AUTHORIZATION": f"Token {raw}"}
    _, other_raw = issue_device_token(crew.other_referee, "phone")

    anonymous = client.post(moves, move, content_type="application/json")
    revoked = client.post(moves, move, content_type="application/json",
                          HTTP_AUTHORIZATION="Token kk_not-a-token")  # fmt: skip
    other = client.post(moves, move, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {other_raw}")  # fmt: skip
    missing = client.get("/api/games/999999/moves/")
    nowhere = client.get("/api/no-such-endpoint/")
    method = client.delete(moves, **referee)  # type: ignore[arg-type]
    media = client.post(moves, "seq=1", content_type="text/plain", **referee)  # type: ignore[arg-type]
    since = client.get(f"{moves}?since=yesterday")
    client.force_login(crew.organiser)
    field = client.post("/api/entries/", {"tournament": crew.tournament.slug},
                        content_type="application/json")  # fmt: skip

    one_shape(anonymous.status_code, anonymous.json(), "not_authenticated")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    one_shape(revoked.status_code, revoked.json(), "authentication_failed")
    assert revoked.status_code == 401
    one_shape(other.status_code, other.json(), "permission_denied")
    assert other.status_code == 403
    one_shape(missing.status_code, missing.json(), "not_found")
    assert (missing.status_code, nowhere.status_code) == (404, 404)
    one_shape(nowhere.status_code, nowhere.json(), "not_found")
    one_shape(method.status_code, method.json(), "method_not_allowed")
    assert method.status_code == 405
    one_shape(media.status_code, media.json(), "unsupported_media_type")
    assert media.status_code == 415
    parse = one_shape(since.status_code, since.json(), "parse_error")
    assert (since.status_code, parse["message_en"]) == (400, "since must be an integer")
    body = one_shape(field.status_code, field.json(), "bad_request")
    assert field.status_code == 400 and "display_name" in body["detail"]
    assert t17_game.moves.count() == 0


def test_a_throttled_request_says_how_long_to_wait() -> None:
    response = exception_handler(Throttled(wait=12.2), {})

    assert response is not None and response.status_code == 429
    assert response["Retry-After"] == "13"
    body = one_shape(429, response.data, "throttled")
    assert body["detail"] == {"retry_after_seconds": 13}


def test_a_form_body_over_djangos_limit_is_413(settings: Any) -> None:
    response = exception_handler(RequestDataTooBig("too big"), {})

    assert response is not None and response.status_code == 413
    body = one_shape(413, response.data, "body_too_large")
    assert body["detail"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


def test_an_answer_in_another_format_is_406() -> None:
    response = exception_handler(NotAcceptable(), {})

    assert response is not None and response.status_code == 406
    one_shape(406, response.data, "not_acceptable")
