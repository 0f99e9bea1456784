"""A PIN card: the sign-in name and an 8-digit PIN sign a referee in once and land them on
/referee/; five wrong PINs kill the card; a wrong sign-in name looks exactly like a wrong PIN."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import SignInCode, Tournament

pytestmark = pytest.mark.django_db

PIN_URL = "/accounts/pin/"


@pytest.fixture
def referee(organiser: User, tournament: Tournament) -> User:
    return services.add_official_person(
        tournament, organiser, display_name="Ito Hana", role="referee"
    ).user


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**8:08d}"


def test_the_right_pin_signs_in_once_and_lands_on_the_referee_page(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)
    assert re.fullmatch(r"\d{8}", pin)

    form = client.get(f"{PIN_URL}?user={referee.username}")
    # As typed on a phone: capitalised name, PIN in two groups of four.
    signed_in = client.post(
        PIN_URL, {"username": referee.username.capitalize(), "pin": f"{pin[:4]} {pin[4:]}"}
    )
    client.logout()
    again = client.post(PIN_URL, {"username": referee.username, "pin": pin})

    assert form.status_code == 200 and f'value="{referee.username}"' in form.content.decode()
    assert signed_in.status_code == 302 and signed_in["Location"] == "/referee/"
    assert again.status_code == 422
    assert SignInCode.objects.get(user=referee).used_at is not None


def test_htmx_sign_in_redirects_the_whole_page(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)

    response = client.post(
        PIN_URL,
        {"username": referee.username, "pin": pin, "next": "/referee/tables/7/"},
        HTTP_HX_REQUEST="true",
    )

    assert response["HX-Redirect"] == "/referee/tables/7/"
    assert int(client.session["_auth_user_id"]) == referee.pk


def test_five_wrong_pins_kill_the_card(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)

    answers = [
        client.post(PIN_URL, {"username": referee.username, "pin": wrong(pin)}).status_code
        for _ in range(5)
    ]
    late = client.post(PIN_URL, {"username": referee.username, "pin": pin})

    assert answers == [422] * 5
    assert late.status_code == 422
    assert SignInCode.objects.get(user=referee).failed_attempts == 5
    assert "_auth_user_id" not in client.session


def test_four_wrong_pins_still_leave_the_right_one_working(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)
    for _ in range(4):
        client.post(PIN_URL, {"username": referee.username, "pin": wrong(pin)})

    assert client.post(PIN_URL, {"username": referee.username, "pin": pin}).status_code == 302


def test_a_wrong_sign_in_name_is_indistinguishable_from_a_wrong_pin(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)

    def refusal(username: str) -> tuple[int, str]:
        response = client.post(PIN_URL, {"username": username, "pin": wrong(pin)})
        html = response.content.decode()
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
        html = re.sub(r'"x-csrftoken": "[^"]+"', "", html)
        return response.status_code, html.replace(username, "NAME")

    known = refusal(referee.username)
    unknown = refusal("nagoya-open-99")

    assert known[0] == unknown[0] == 422
    assert known[1] == unknown[1]
    assert "The sign-in name or the PIN is wrong" in known[1]


def test_a_new_card_replaces_the_old_one_and_other_users_pins_do_not_work(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, old = services.issue_pin_card(tournament, organiser, referee)
    _, new = services.issue_pin_card(tournament, organiser, referee)
    other = services.add_official_person(
        tournament, organiser, display_name="Sato Ren", role="referee"
    ).user
    _, others_pin = services.issue_pin_card(tournament, organiser, other)

    assert client.post(PIN_URL, {"username": referee.username, "pin": old}).status_code == 422
    if others_pin != new:
        assert (
            client.post(PIN_URL, {"username": referee.username, "pin": others_pin}).status_code
            == 422
        )
    assert client.post(PIN_URL, {"username": referee.username, "pin": new}).status_code == 302


def test_pin_cards_for_every_referee_print_name_pin_and_qr(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    other = services.add_official_person(
        tournament, organiser, display_name="Ueda Ken", role="head_referee"
    ).user
    client.force_login(organiser)

    response = client.post("/organiser/nagoya-open/officials/pin-cards/", {"hours": "72"})

    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert html.count('data-testid="pin-card"') == 2
    assert referee.username in html and other.username in html and "Ito Hana" in html
    assert html.count("<svg") == 2
    assert SignInCode.objects.filter(kind="pin", user__in=[referee, other]).count() == 2
    pins = re.findall(r'data-testid="pin-card-pin">(\d{4} \d{4})<', html)
    assert len(pins) == 2
    client.logout()
    response = client.post(PIN_URL, {"username": other.username, "pin": pins[1]})
    assert response.status_code == 302


def test_password_login_lands_each_person_on_their_page_and_keeps_next(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    referee = User.objects.create_user("ref-plain", password="correct horse battery")
    services.add_official_user(tournament, organiser, username="ref-plain", role="referee")
    organiser.set_password("correct horse battery")
    organiser.save()

    def login(username: str, next_: str = "") -> str:
        client.logout()
        url = "/accounts/login/" + (f"?next={next_}" if next_ else "")
        data = {"username": username, "password": "correct horse battery"}
        if next_:
            data["next"] = next_
        response = client.post(url, data, follow=True)
        return str(response.redirect_chain[-1][0])

    assert login(referee.username) == "/referee/"
    assert login(organiser.username) == "/organiser/"
    assert login(referee.username, "/standings/") == "/standings/"


def test_the_pin_page_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, pin = services.issue_pin_card(tournament, organiser, referee)

    page = client_ja.get(PIN_URL).content.decode()
    refused = client_ja.post(
        PIN_URL, {"username": referee.username, "pin": wrong(pin)}
    ).content.decode()

    assert "<h1>PINカードでサインイン</h1>" in page and ">サインイン</button>" in page
    assert "Sign in with your PIN card" not in page and ">Sign in</button>" not in page
    assert "サインイン名かPINが正しくない" in refused
    assert "The sign-in name or the PIN is wrong" not in refused
