"""Too many wrong passwords or PINs for one sign-in name from one address, and signing in as
that name from there is paused: even the right password or PIN is refused with a page (429,
`Retry-After`) saying how long to wait, in Japanese or English. After the wait it works again.
Another name from the same address, or the same name from another address, is not locked out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, browser
from tournaments import services
from tournaments.models import Official

pytestmark = pytest.mark.django_db

LOGIN_URL = "/accounts/login/"
PIN_URL = "/accounts/pin/"
LIMIT = 10  # LOGIN_FAILURE_LIMIT's default
WAIT = "Wait 15 minutes and try again"


def from_address(address: str, language: str = "en") -> Client:
    client = browser(language)
    client.defaults["REMOTE_ADDR"] = address
    return client


def log_in(client: Client, username: str, password: str) -> Any:
    return client.post(LOGIN_URL, {"username": username, "password": password})


def wait_out_the_cool_off() -> None:
    """Sixteen minutes pass: every recorded failure is moved back in time."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))


@pytest.fixture
def sato() -> User:
    return UserFactory(username="sato", password="right-horse-battery")


def test_after_the_limit_the_right_password_is_refused_with_how_long_to_wait(sato: User) -> None:
    client = from_address("203.0.113.7")

    wrong = [log_in(client, "sato", "guess").status_code for _ in range(LIMIT - 1)]
    last_wrong = log_in(client, "sato", "guess")
    right = log_in(client, "sato", "right-horse-battery")

    assert wrong == [200] * (LIMIT - 1)  # the form again, saying the password is wrong
    assert last_wrong.status_code == 429
    assert right.status_code == 429
    assert right["Retry-After"] == "900"
    assert WAIT in right.content.decode()
    assert 'data-testid="locked-out"' in right.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_page_speaks_japanese(sato: User) -> None:
    client = from_address("203.0.113.7", "ja")

    for _ in range(LIMIT):
        log_in(client, "sato", "guess")
    page = log_in(client, "sato", "right-horse-battery").content.decode()

    assert "15分待ってから" in page
    assert "サインインを一時停止" in page


def test_after_the_cool_off_the_right_password_works(sato: User) -> None:
    client = from_address("203.0.113.7")
    for _ in range(LIMIT):
        log_in(client, "sato", "guess")

    wait_out_the_cool_off()
    right = log_in(client, "sato", "right-horse-battery")

    assert right.status_code == 302
    assert int(client.session["_auth_user_id"]) == sato.pk


def test_a_locked_out_name_does_not_lock_out_others(sato: User) -> None:
    UserFactory(username="ito", password="another-long-secret")
    attacker = from_address("203.0.113.7")
    for _ in range(LIMIT):
        log_in(attacker, "sato", "guess")

    # Another referee on the same venue Wi-Fi, and Sato from home.
    same_address = log_in(from_address("203.0.113.7"), "ito", "another-long-secret")
    other_address = log_in(from_address("198.51.100.20"), "sato", "right-horse-battery")

    assert same_address.status_code == 302
    assert other_address.status_code == 302


def test_the_name_counts_however_it_is_typed(sato: User) -> None:
    client = from_address("203.0.113.7")
    for index in range(LIMIT):
        log_in(client, "Sato" if index % 2 else " sato ", "guess")

    assert log_in(client, "sato", "right-horse-battery").status_code == 429


@pytest.fixture
def pin_card() -> tuple[User, str]:
    organiser = UserFactory(username="organiser-a")
    tournament = TournamentFactory(slug="nagoya-open")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    referee = services.add_official_person(
        tournament, organiser, display_name="Ito Hana", role="referee"
    ).user
    _, pin = services.issue_pin_card(tournament, organiser, referee)
    return referee, pin


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**8:08d}"


def test_wrong_pins_lock_out_the_pin_form_too(settings: Any, pin_card: tuple[User, str]) -> None:
    # Below the card's own five wrong PINs, so the card itself still works afterwards.
    settings.AXES_FAILURE_LIMIT = 3
    referee, pin = pin_card
    client = from_address("203.0.113.7")

    wrong_answers = [
        client.post(PIN_URL, {"username": referee.username, "pin": wrong(pin)}).status_code
        for _ in range(3)
    ]
    right = client.post(PIN_URL, {"username": referee.username, "pin": pin})
    wait_out_the_cool_off()
    later = client.post(PIN_URL, {"username": referee.username, "pin": pin})

    assert wrong_answers == [422, 422, 429]
    assert right.status_code == 429 and WAIT in right.content.decode()
    assert later.status_code == 302 and later["Location"] == "/referee/"


def test_a_locked_out_htmx_pin_form_gets_the_message_alone(
    settings: Any, pin_card: tuple[User, str]
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    referee, pin = pin_card
    client = from_address("203.0.113.7")
    for _ in range(3):
        client.post(PIN_URL, {"username": referee.username, "pin": wrong(pin)})

    answer = client.post(
        PIN_URL, {"username": referee.username, "pin": pin}, HTTP_HX_REQUEST="true"
    )

    assert answer.status_code == 429
    assert 'data-testid="locked-out"' in answer.content.decode()
    assert "<html" not in answer.content.decode()


def test_wrong_passwords_and_pins_count_together(settings: Any, pin_card: tuple[User, str]) -> None:
    settings.AXES_FAILURE_LIMIT = 4
    referee, pin = pin_card
    client = from_address("203.0.113.7")
    for _ in range(2):
        log_in(client, referee.username, "guess")
    for _ in range(2):
        client.post(PIN_URL, {"username": referee.username, "pin": wrong(pin)})

    assert client.post(PIN_URL, {"username": referee.username, "pin": pin}).status_code == 429
