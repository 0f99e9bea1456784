"""Table PINs typed through the API are still throttled: each device's PIN attempts against
the table-PIN rate (30 a minute), and each wrong PIN against the client's address (the
`failed-credentials` rate); past it the address's next PIN gets 429 before it is checked — the
right one too, and the game stays as it was — while another address confirms as before. The
same holds for the PIN typed on the confirm page of the recorder's phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.auth import issue_device_token
from games.models import Game
from tests.factories import browser
from tests.games.conftest import Crew
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def finished(crew: Crew) -> Game:
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(game, crew.referee, [0, 1, 2, 3])
    return game


def scorer_device(crew: Crew, address: str) -> Client:
    _, raw = issue_device_token(crew.referee, f"phone at {address}")
    return Client(REMOTE_ADDR=address, HTTP_AUTHORIZATION=f"Token {raw}")


def confirm(device: Client, game: Game, pin: str, seat: int = 3) -> Any:
    body = {"seat": seat, "pin": pin}
    return device.post(f"/api/games/{game.pk}/confirm/", body, content_type="application/json")


def test_pin_attempts_past_the_devices_rate_get_429(crew: Crew) -> None:
    game = finished(crew)
    device = scorer_device(crew, "203.0.113.7")

    # The seat does not exist: not a wrong PIN, so only the table-PIN rate counts these.
    answers = [confirm(device, game, "123456", seat=9).status_code for _ in range(31)]

    assert answers[:30] == [400] * 30
    assert answers[30] == 429


def test_wrong_pins_count_against_the_address(settings: Any, crew: Crew) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "failed-credentials": "3/minute"},
    }
    game = finished(crew)
    pin = Table.objects.get(pk=crew.table.pk).confirm_pin
    wrong = "000000" if pin != "000000" else "111111"
    # Two devices on one venue address: the address counts, whichever device guesses.
    first, second = scorer_device(crew, "203.0.113.7"), scorer_device(crew, "203.0.113.7")

    guesses = [confirm(device, game, wrong) for device in (first, second, first)]
    right_from_there = confirm(second, game, pin)
    state_then = Game.objects.get(pk=game.pk).status
    failures_then = Table.objects.get(pk=crew.table.pk).pin_failures
    right_elsewhere = confirm(scorer_device(crew, "198.51.100.20"), game, pin)

    assert [g.status_code for g in guesses] == [403, 403, 403]
    assert {g.json()["code"] for g in guesses} == {"wrong_pin"}
    assert right_from_there.status_code == 429
    assert right_from_there.json()["code"] == "throttled"
    assert 0 < int(right_from_there["Retry-After"]) <= 60
    assert state_then == Game.Status.FINISHED  # the PIN was not even checked
    assert failures_then == 3
    assert right_elsewhere.status_code == 200
    assert right_elsewhere.json()["confirmed_by_seat"] == 3


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Too many wrong PINs and sign-ins from this network"), ("ja", "失敗が続いています")],
)
def test_the_confirm_page_counts_wrong_pins_against_the_address_too(
    settings: Any, crew: Crew, language: str, words: str
) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "failed-credentials": "2/minute"},
    }
    game = finished(crew)
    pin = Table.objects.get(pk=crew.table.pk).confirm_pin
    wrong = "000000" if pin != "000000" else "111111"
    phone = browser(language)
    phone.defaults["REMOTE_ADDR"] = "203.0.113.7"
    phone.force_login(crew.referee)
    url = reverse("referee:confirm", args=[game.pk])

    guesses = [phone.post(url, {"by": "player", "seat": "1", "pin": wrong}) for _ in range(2)]
    right = phone.post(url, {"by": "player", "seat": "1", "pin": pin})

    assert [g.status_code for g in guesses] == [422, 422]
    assert right.status_code == 429
    assert 0 < int(right["Retry-After"]) <= 60
    assert words in right.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert Table.objects.get(pk=crew.table.pk).pin_failures == 2
