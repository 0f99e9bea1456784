"""Sessions do not depend on Redis alone (``cached_db``, the cache failing open): while Redis is
down a signed-in official stays signed in (the session is read from the database), anyone can
sign in and out, and no page fails; once Redis is back, a sign-out made meanwhile holds — Redis
does not bring back the session it held before (to a cookie kept elsewhere)."""

from __future__ import annotations

from http.cookies import SimpleCookie

import pytest
import redis
from django.test import Client

from tests.conftest import RedisServer
from tests.factories import OfficialFactory, UserFactory
from tournaments.models import Official

pytestmark = pytest.mark.django_db

PAGE = "/organiser/"  # for signed-in officials only: others are sent to the sign-in page


def organiser(name: str) -> object:
    user = UserFactory(username=name)
    OfficialFactory(user=user, role=Official.Role.ORGANISER)
    return user


def signed_in(client: Client) -> bool:
    answer = client.get(PAGE)
    assert answer.status_code in (200, 302), answer.status_code
    return answer.status_code == 200


def test_officials_stay_signed_in_and_can_sign_in_while_redis_is_down(
    redis_cache: RedisServer,
) -> None:
    kato = Client()
    kato.force_login(organiser("org-kato"))  # the session is in Redis and the database
    assert signed_in(kato)
    organiser("org-sato")

    redis_cache.stop()
    still = signed_in(kato)
    sato = Client()
    signing_in = sato.post(
        "/accounts/login/", {"username": "org-sato", "password": "correct horse battery"}
    )
    sato_in = signed_in(sato)
    signing_out = kato.post("/accounts/logout/")
    kato_out = not signed_in(kato)
    redis_cache.start()  # empty: what it held is gone
    after = signed_in(sato)

    assert still
    assert signing_in.status_code == 302 and sato_in
    assert signing_out.status_code == 302 and kato_out
    assert after


def test_a_sign_out_during_an_outage_holds_once_redis_is_back(
    redis_cache: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("config.cache.RETRY_SECONDS", 0.0)  # Redis is tried again at once
    kato = Client()
    kato.force_login(organiser("org-kato"))
    assert signed_in(kato)  # Redis holds the session now
    # Another tab of the same browser, or a copy of the cookie: it keeps the session's key.
    other_tab = Client()
    other_tab.cookies = SimpleCookie(kato.cookies.output(header="", sep=";"))
    admin = redis.Redis.from_url(redis_cache.url, socket_timeout=5)

    admin.client_pause(1500)  # Redis keeps its data but answers nobody for 1.5 s
    signing_out = kato.post("/accounts/logout/")
    assert admin.ping()  # the pause is over

    assert signing_out.status_code == 302
    assert not signed_in(kato)
    assert not signed_in(other_tab)  # the session ended in the database is not read from Redis
