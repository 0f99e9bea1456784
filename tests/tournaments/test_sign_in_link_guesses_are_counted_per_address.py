"""Guessed sign-in links count against the client's address: past the `failed-credentials`
rate (60 a minute) that address gets 429 with Retry-After, and a page saying how long to wait,
before any link it opens is looked at — a real link is left unused — while another address
opens and uses the real link as before."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import SignInCode, Tournament

pytestmark = pytest.mark.django_db

RATE = 60


def from_address(address: str) -> Client:
    return Client(REMOTE_ADDR=address, headers={"accept-language": "en"})


def test_link_guesses_past_the_rate_get_429_from_that_address_only(
    organiser: User, tournament: Tournament
) -> None:
    referee = services.add_official_person(
        tournament, organiser, display_name="Ito Hana", role="referee"
    ).user
    code, secret = services.issue_sign_in_link(tournament, organiser, referee)
    guesser = from_address("203.0.113.7")

    guesses = [guesser.get(f"/accounts/link/guess-{n:04d}/") for n in range(RATE)]
    past = guesser.post("/accounts/link/guess-9999/")
    real_from_there = guesser.get(f"/accounts/link/{secret}/")
    used_from_there = guesser.post(f"/accounts/link/{secret}/")
    code.refresh_from_db()
    unused_then = code.used_at is None
    elsewhere = from_address("198.51.100.20")
    shown = elsewhere.get(f"/accounts/link/{secret}/")
    used = elsewhere.post(f"/accounts/link/{secret}/")

    assert {g.status_code for g in guesses} == {410}  # refused as unusable
    assert past.status_code == 429
    assert 0 < int(past["Retry-After"]) <= 60
    assert "Too many failed sign-ins from your address" in past.content.decode()
    assert real_from_there.status_code == 429 and used_from_there.status_code == 429
    assert unused_then
    assert "_auth_user_id" not in guesser.session
    assert shown.status_code == 200
    assert used.status_code == 302
    assert int(elsewhere.session["_auth_user_id"]) == referee.pk
    assert SignInCode.objects.get(pk=code.pk).used_at is not None
