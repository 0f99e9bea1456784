"""Every malformed, oversized or hostile body sent to the API is a 4xx in the API's error shape —
never a 500, never a worker busy reading 40 MB — and leaves the game as it was. Who may not
write the game learns so before a byte of the body is read."""

from __future__ import annotations

import io
import json
import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from games.auth import issue_device_token
from games.models import Game
from tests.factories import GameFactory
from tournaments.models import Entry

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db

NDJSON = "application/x-ndjson"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FORTY_MB = 40 * 1024 * 1024


class CountingBody(io.BytesIO):
    """The request's body stream, counting what the server reads of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.bytes_read = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.bytes_read += len(chunk)
        return chunk

    def readline(self, size: int | None = -1) -> bytes:
        chunk = super().readline(size)
        self.bytes_read += len(chunk)
        return chunk


def token_for(user: User) -> dict[str, str]:
    _, raw = issue_device_token(user, "phone")
    return {"HTTP_AUTHORIZATION": f"Token {raw}"}


def post_moves(
    client: Client, game: Game, body: bytes, content_type: str, user: User
) -> tuple[HttpResponse, CountingBody]:
    stream = CountingBody(body)
    response = client.post(
        f"/api/games/{game.pk}/moves/",
        body,
        content_type=content_type,
        **{"wsgi.input": stream},  # type: ignore[arg-type]
        **token_for(user),  # type: ignore[arg-type]
    )
    return response, stream


def assert_api_error(response: HttpResponse, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = response.json()
    assert {"code", "message_en", "message_ja", "detail"} <= body.keys()
    assert body["code"] == code
    assert body["message_en"] and JAPANESE.search(body["message_ja"])
    return body


def assert_unchanged(game: Game) -> None:
    game.refresh_from_db()
    assert (game.last_seq, game.moves.count()) == (0, 0)


def ndjson_lines(count: int) -> bytes:
    line = json.dumps({"seq": 1, "move": T17_MOVES[0]}) + "\n"
    return (line * count).encode()


def nested(depth: int) -> str:
    return "[" * depth + '"3S"' + "]" * depth


def test_forty_megabytes_from_an_account_without_access_are_refused_unread(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    body = b'{"seq": 1, "move": {"seat": 0, "pass": true}}\n' * (FORTY_MB // 46)
    started = time.monotonic()

    other_table, read_by_other = post_moves(client, t17_game, body, NDJSON, crew.other_referee)
    hidden = GameFactory()  # a draft round of another tournament: not even visible
    unseen, read_by_unseen = post_moves(client, hidden, body, NDJSON, crew.referee)

    assert time.monotonic() - started < 5
    assert_api_error(other_table, 403, "permission_denied")
    assert_api_error(unseen, 404, "not_found")
    assert (read_by_other.bytes_read, read_by_unseen.bytes_read) == (0, 0)
    assert_unchanged(t17_game)


def test_forty_megabytes_from_the_tables_referee_are_413_unread(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    body = ndjson_lines(FORTY_MB // 50)

    response, stream = post_moves(client, t17_game, body, NDJSON, crew.referee)

    answer = assert_api_error(response, 413, "body_too_large")
    assert answer["detail"] == {"max_bytes": 1024 * 1024}
    assert stream.bytes_read == 0
    assert_unchanged(t17_game)


def test_a_session_without_access_is_refused_before_its_body_is_read(
    crew: Crew, t17_game: Game
) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(crew.other_referee)
    browser.get("/")  # the CSRF cookie
    csrf = browser.cookies["csrftoken"].value if "csrftoken" in browser.cookies else ""
    body = ndjson_lines(FORTY_MB // 50)
    stream = CountingBody(body)

    response = browser.post(
        f"/api/games/{t17_game.pk}/moves/",
        body,
        content_type=NDJSON,
        HTTP_X_CSRFTOKEN=csrf,
        **{"wsgi.input": stream},  # type: ignore[arg-type]
    )

    assert response.status_code == 403
    assert response.json()["code"] in {"permission_denied"}
    assert stream.bytes_read == 0
    assert_unchanged(t17_game)


@pytest.mark.parametrize(
    ("body", "content_type", "code", "detail"),
    [
        ("{" * 5000 + "}" * 5000, "application/json", "nested_too_deep", {"max_depth": 32}),
        (
            '{"seq": 1, "move": {"seat": 0, "play": ' + nested(5000) + "}}",
            "application/json",
            "nested_too_deep",
            {"max_depth": 32},
        ),
        (
            '{"seq": 1, "move": {"seat": 0, "play": ["3S"]}}\n'
            '{"seq": 2, "move": {"seat": 1, "play": ' + nested(5000) + "}}\n",
            NDJSON,
            "nested_too_deep",
            {"line": 2, "max_depth": 32},
        ),
        ('{"seq": 1, "move": {"seat": 0, "play": ["\\ud800"]}}', "application/json",
         "unpaired_surrogate", None),
        ('{"seq": 1, "move": {"seat": 0, "play": ["\\udc00S"]}}\n', NDJSON,
         "unpaired_surrogate", {"line": 1}),
        ('{"seq": 1, "move": {"seat": 0, "\\ud83d": true}}', "application/json",
         "unpaired_surrogate", None),
    ],
    ids=["deep-json", "deep-move", "deep-ndjson-line", "surrogate-card", "surrogate-ndjson",
         "surrogate-key"],
)  # fmt: skip
def test_deep_nesting_and_unpaired_surrogates_are_400(
    client: Client,
    crew: Crew,
    t17_game: Game,
    body: str,
    content_type: str,
    code: str,
    detail: object,
) -> None:
    response, _ = post_moves(client, t17_game, body.encode(), content_type, crew.referee)

    assert assert_api_error(response, 400, code)["detail"] == detail
    assert_unchanged(t17_game)


def test_a_surrogate_pair_is_text_and_reaches_the_rules(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    card = '"\\ud83c\\udca1"'  # 🂡, escaped as a pair: well-formed, but no card of this game
    body = '{"seq": 1, "move": {"seat": 0, "play": [' + card + "]}}"

    response, _ = post_moves(client, t17_game, body.encode(), "application/json", crew.referee)

    assert 400 <= response.status_code < 500
    assert response.json()["code"] != "unpaired_surrogate"
    assert_unchanged(t17_game)


@pytest.mark.parametrize("content_type", ["application/json", NDJSON])
def test_invalid_utf8_is_400(client: Client, crew: Crew, t17_game: Game, content_type: str) -> None:
    body = b'{"seq": 1, "move": {"seat": 0, "play": ["\xff\xfe"]}}\n'

    response, _ = post_moves(client, t17_game, body, content_type, crew.referee)

    assert assert_api_error(response, 400, "invalid_utf8")["detail"]["position"] == 41
    assert_unchanged(t17_game)


@pytest.mark.parametrize("content_type", ["application/json", NDJSON])
def test_json_that_does_not_parse_is_400(
    client: Client, crew: Crew, t17_game: Game, content_type: str
) -> None:
    response, _ = post_moves(client, t17_game, b'{"seq": 1, "move": NaN}', content_type,
                             crew.referee)  # fmt: skip

    assert_api_error(response, 400, "invalid_json")
    assert_unchanged(t17_game)


def test_a_batch_over_the_line_limit_is_413_and_plays_nothing(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    response, _ = post_moves(client, t17_game, ndjson_lines(1001), NDJSON, crew.referee)

    assert assert_api_error(response, 413, "too_many_lines")["detail"] == {"max_lines": 1000}
    assert_unchanged(t17_game)


def test_the_limits_are_settings(client: Client, crew: Crew, t17_game: Game, settings: Any) -> None:
    settings.API_MAX_NDJSON_LINES = 2
    settings.API_MAX_BODY_BYTES = 100
    settings.API_MAX_JSON_DEPTH = 3

    lines, _ = post_moves(client, t17_game, ndjson_lines(3)[:100], NDJSON, crew.referee)
    large, _ = post_moves(client, t17_game, b" " * 101, "application/json", crew.referee)
    deep, _ = post_moves(client, t17_game, b'{"seq": 1, "move": [[[1]]]}', "application/json",
                         crew.referee)  # fmt: skip

    assert_api_error(lines, 413, "too_many_lines")
    assert_api_error(large, 413, "body_too_large")
    assert_api_error(deep, 400, "nested_too_deep")
    assert_unchanged(t17_game)


# --- entrants ----------------------------------------------------------------------------------


def add_entrant(client: Client, crew: Crew, **fields: object) -> HttpResponse:
    client.force_login(crew.organiser)
    body = {"tournament": crew.tournament.slug, "display_name": "Endo", **fields}
    return client.post("/api/entries/", body, content_type="application/json")


def test_a_taken_entrant_number_is_400_with_its_code(client: Client, crew: Crew) -> None:
    before = Entry.objects.count()

    response = add_entrant(client, crew, number=1)  # Aoki's

    assert_api_error(response, 400, "number_taken")
    assert Entry.objects.count() == before


def test_an_entrant_number_beyond_the_database_is_400(client: Client, crew: Crew) -> None:
    before = Entry.objects.count()

    response = add_entrant(client, crew, number=2**31)

    assert "number" in assert_api_error(response, 400, "bad_request")["detail"]
    assert Entry.objects.count() == before


def test_a_next_number_beyond_the_database_is_400(client: Client, crew: Crew) -> None:
    assert add_entrant(client, crew, number=2**31 - 1).status_code == 201
    before = Entry.objects.count()

    response = add_entrant(client, crew, display_name="Fujita")  # would be number 2**31

    assert_api_error(response, 400, "invalid_value")
    assert Entry.objects.count() == before
