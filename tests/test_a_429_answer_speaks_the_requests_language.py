"""A 429 answer of the API says what to do in the request's language: `message` in Japanese for
a client that asks for Japanese (and for one that asks for nothing: the site's default), in
English for one that asks for English, beside `code`, `message_en` and `message_ja`, with the
wait in Retry-After and in `detail`."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

RATE = 60
ENGLISH = "Too many requests: wait the seconds in Retry-After, then try again."
JAPANESE = "リクエストが多すぎます。Retry-After の秒数だけ待ってから、もう一度お試しください。"


def flooded(**headers: str) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.7", HTTP_AUTHORIZATION="Token kk_guess", **headers)
    for _ in range(RATE):
        client.get("/api/tournaments/")
    return client


@pytest.mark.parametrize(
    ("language", "message"), [("ja", JAPANESE), ("en", ENGLISH), (None, JAPANESE)]
)
def test_the_429_body_is_in_the_requests_language(language: str | None, message: str) -> None:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}

    answer = flooded(**headers).get("/api/tournaments/")

    assert answer.status_code == 429
    body = answer.json()
    wait = int(answer["Retry-After"])
    assert 0 < wait <= 60
    assert body == {
        "code": "throttled",
        "message": message,
        "message_en": ENGLISH,
        "message_ja": JAPANESE,
        "detail": {"retry_after_seconds": wait},
    }
