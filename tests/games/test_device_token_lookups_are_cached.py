"""A device's token is looked up once and then read from the cache; revoking the token or
deactivating its user holds on the very next request — in every process when the cache is the
shared Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from games.auth import DeviceTokenAuthentication, issue_device_token, revoke_device_token
from games.models import DeviceToken
from tests.conftest import ROOT, database_url_for_test_db
from tests.factories import OfficialFactory, TournamentFactory, UserFactory
from tournaments.models import Official
from tournaments.services import revoke_official


def authenticate(raw: str) -> Any:
    request = Request(RequestFactory().get("/api/", HTTP_AUTHORIZATION=f"Token {raw}"))
    return DeviceTokenAuthentication().authenticate(request)


@pytest.fixture
def device(db: None) -> tuple[DeviceToken, str]:
    return issue_device_token(UserFactory(), "phone at table 3")


def test_a_known_token_is_read_from_the_cache_without_a_query(
    device: tuple[DeviceToken, str], django_capture_on_commit_callbacks: Any
) -> None:
    token, raw = device
    assert authenticate(raw)[1].pk == token.pk  # looked up, remembered

    with CaptureQueriesContext(connection) as queries:
        user, same = authenticate(raw)

    assert len(queries) == 0
    assert (user.pk, same.pk) == (token.user_id, token.pk)


def test_a_revoked_token_is_refused_on_the_very_next_request(
    device: tuple[DeviceToken, str], django_capture_on_commit_callbacks: Any
) -> None:
    token, raw = device
    authenticate(raw)

    with django_capture_on_commit_callbacks(execute=True):
        revoke_device_token(token)

    with pytest.raises(AuthenticationFailed):
        authenticate(raw)


def test_a_deactivated_users_token_is_refused_at_once(
    device: tuple[DeviceToken, str], django_capture_on_commit_callbacks: Any
) -> None:
    token, raw = device
    authenticate(raw)

    with django_capture_on_commit_callbacks(execute=True):
        token.user.is_active = False
        token.user.save()

    with pytest.raises(AuthenticationFailed):
        authenticate(raw)


def test_a_token_revoked_when_its_official_is_removed_is_refused_at_once(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = TournamentFactory()
    organiser = UserFactory()
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    referee = OfficialFactory(tournament=tournament, role=Official.Role.REFEREE)
    _, raw = issue_device_token(referee.user, "scorer", tournament=tournament)
    authenticate(raw)

    with django_capture_on_commit_callbacks(execute=True):
        revoke_official(referee, organiser)

    with pytest.raises(AuthenticationFailed):
        authenticate(raw)


REVOKE = """
import django; django.setup()
from games.auth import revoke_device_token
from games.models import DeviceToken
revoke_device_token(DeviceToken.objects.get(pk={pk}))
"""


@pytest.mark.integration
def test_a_token_revoked_in_another_process_is_refused_here_at_once(
    transactional_db: None, shared_redis: dict[str, str]
) -> None:
    user: User = UserFactory()
    token, raw = issue_device_token(user, "phone")
    authenticate(raw)
    with CaptureQueriesContext(connection) as queries:
        authenticate(raw)
    assert len(queries) == 0  # this process now answers from the shared cache

    env = {
        **os.environ,
        **shared_redis,
        "DATABASE_URL": database_url_for_test_db(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    revoked = subprocess.run(
        [sys.executable, "-c", REVOKE.format(pk=token.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert revoked.returncode == 0, revoked.stderr

    with pytest.raises(AuthenticationFailed):
        authenticate(raw)
