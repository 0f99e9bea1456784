"""Failed sign-ins count against the client's address whatever the name: a script trying one
password for name after name is never locked out by the per-name lockout (ten per name), but
past the `failed-credentials` rate (60 a minute) its address gets 429 with Retry-After and a page
saying how long to wait, in Japanese or English, before any password is checked — the right one
too. Wrong PIN-card PINs count the same way. Another address signs in as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, browser
from tournaments import services
from tournaments.models import Official

pytestmark = pytest.mark.django_db

RATE = 60
LOGIN_URL = "/accounts/login/"
PIN_URL = "/accounts/pin/"


def from_address(address: str, language: str = "en") -> Client:
    client = browser(language)
    client.defaults["REMOTE_ADDR"] = address
    return client


def log_in(client: Client, username: str, password: str) -> Any:
    return client.post(LOGIN_URL, {"username": username, "password": password})


@pytest.fixture
def sato() -> User:
    return UserFactory(username="sato", password="right-horse-battery")


def test_passwords_tried_for_many_names_get_429_from_that_address(sato: User) -> None:
    script = from_address("203.0.113.7")

    tries = [log_in(script, f"name-{n}", "123456").status_code for n in range(RATE)]
    right_from_there = log_in(script, "sato", "right-horse-battery")
    elsewhere = from_address("198.51.100.20")
    right_elsewhere = log_in(elsewhere, "sato", "right-horse-battery")

    assert tries == [200] * RATE  # the form again: a wrong password, no name locked out
    assert right_from_there.status_code == 429
    assert 0 < int(right_from_there["Retry-After"]) <= 60
    page = right_from_there.content.decode()
    assert "Too many failed sign-ins from your address. Wait 1 minute" in page
    assert "_auth_user_id" not in script.session
    assert right_elsewhere.status_code == 302
    assert int(elsewhere.session["_auth_user_id"]) == sato.pk


def test_the_page_speaks_japanese(sato: User) -> None:
    script = from_address("203.0.113.7", "ja")
    for n in range(RATE):
        log_in(script, f"name-{n}", "123456")

    page = log_in(script, "sato", "right-horse-battery").content.decode()

    assert "この接続元からのサインインの失敗が続いています" in page
    assert "1分待ってから" in page


def test_wrong_pin_card_pins_count_against_the_address(settings: Any) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "failed-credentials": "3/minute"},
    }
    organiser = UserFactory(username="organiser-a")
    tournament = TournamentFactory(slug="nagoya-open")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    referee = services.add_official_person(
        tournament, organiser, display_name="Ito Hana", role="referee"
    ).user
    _, pin = services.issue_pin_card(tournament, organiser, referee)
    script = from_address("203.0.113.7")

    wrong = [
        script.post(PIN_URL, {"username": name, "pin": "00000000"}).status_code
        for name in ("ito", "endo", "kato")
    ]
    right = script.post(PIN_URL, {"username": referee.username, "pin": pin})
    elsewhere = from_address("198.51.100.20").post(
        PIN_URL, {"username": referee.username, "pin": pin}
    )

    assert wrong == [422, 422, 422]
    assert right.status_code == 429
    assert elsewhere.status_code == 302
