"""A one-time sign-in link: opening it only shows whom it signs in (a link preview cannot
spend it); the button signs in once; used, expired or replaced links are refused plainly."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import Clock, OfficialFactory, PlayerFactory
from tournaments import services
from tournaments.models import AuditEntry, SignInCode, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(organiser: User, tournament: Tournament) -> User:
    return services.add_official_person(
        tournament, organiser, display_name="Ito Hana", role="referee"
    ).user


def link_path(secret: str) -> str:
    return f"/accounts/link/{secret}/"


def test_the_page_issues_a_link_shown_once_with_a_qr_code_and_stores_only_its_hash(
    client: Client, organiser: User, tournament: Tournament, referee: User, clock: Clock
) -> None:
    client.force_login(organiser)
    official = referee.official_roles.get()

    response = client.post(
        f"/organiser/nagoya-open/officials/{official.pk}/link/", HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200 and "<svg" in html
    assert "no-store" in response["Cache-Control"]
    code = SignInCode.objects.get(user=referee)
    secret = html.split("/accounts/link/")[1].split("/")[0]
    assert code.kind == "link" and secret not in code.code_hash
    assert code.code_hash == services.hash_sign_in_secret(secret)
    assert code.expires_at == clock.now + datetime.timedelta(hours=24)
    assert AuditEntry.objects.filter(action="sign_in_issued", data__user=referee.username).exists()
    # Shown once: the officials page afterwards shows that a link is live, not the link.
    again = client.get("/organiser/nagoya-open/officials/").content.decode()
    assert secret not in again and "link →" in again


def test_opening_the_link_does_not_use_it_the_button_does_once(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, secret = services.issue_sign_in_link(tournament, organiser, referee)

    preview = client.get(link_path(secret))
    preview_again = client.get(link_path(secret))
    assert "_auth_user_id" not in client.session
    used = client.post(link_path(secret))
    client.logout()
    reused = client.post(link_path(secret))
    reopened = client.get(link_path(secret))

    assert preview.status_code == preview_again.status_code == 200
    assert "Sign in as Ito Hana" in preview.content.decode()
    assert used.status_code == 302 and used["Location"] == "/referee/"
    assert SignInCode.objects.get(user=referee).used_at is not None
    for refused in (reused, reopened):
        assert refused.status_code == 410
        body = refused.content.decode()
        assert "has been used, has expired or is not valid" in body
    assert "_auth_user_id" not in client.session


def test_a_link_signs_its_own_user_in_and_keeps_next(
    client: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, secret = services.issue_sign_in_link(tournament, organiser, referee)

    response = client.post(link_path(secret), {"next": "/referee/tables/1/"})
    evil = services.issue_sign_in_link(tournament, organiser, referee)[1]
    client.logout()
    offsite = client.post(link_path(evil), {"next": "https://evil.example/"})

    assert response["Location"] == "/referee/tables/1/"
    assert offsite["Location"] == "/referee/"
    assert int(client.session["_auth_user_id"]) == referee.pk


def test_an_expired_or_replaced_link_is_refused(
    client: Client, organiser: User, tournament: Tournament, referee: User, clock: Clock
) -> None:
    _, expired = services.issue_sign_in_link(tournament, organiser, referee, revoke_older=False)
    clock.advance(24 * 3600)  # a link lasts 24 hours: this one's time is up
    _, replaced = services.issue_sign_in_link(tournament, organiser, referee)
    _, current = services.issue_sign_in_link(tournament, organiser, referee)

    assert client.post(link_path(expired)).status_code == 410
    assert client.post(link_path(replaced)).status_code == 410
    assert client.post(link_path("not-a-real-secret")).status_code == 410
    assert "_auth_user_id" not in client.session
    assert client.post(link_path(current)).status_code == 302


def test_links_are_only_for_officials_of_the_tournament(
    organiser: User, tournament: Tournament
) -> None:
    stranger = OfficialFactory(role="referee").user  # an official elsewhere

    with pytest.raises(services.DomainError) as refused:
        services.issue_sign_in_link(tournament, organiser, stranger)

    assert refused.value.code == "not_official"


@pytest.mark.parametrize(
    "whose",
    ["staff", "with a password", "a player's account", "an official of another organiser"],
)
def test_no_sign_in_code_opens_an_account_the_organiser_does_not_control(
    organiser: User, tournament: Tournament, whose: str
) -> None:
    # Otherwise any organiser could add an admin (or another tournament's referee) to their
    # tournament and mint a way into that account.
    user = User.objects.create(username="someone")
    user.set_unusable_password()
    if whose == "staff":
        user.is_staff = True
    elif whose == "with a password":
        user.set_password("their own secret")
    elif whose == "a player's account":
        PlayerFactory(user=user)
    else:
        OfficialFactory(user=user, role="referee")
    user.save()
    services.add_official_user(tournament, organiser, username="someone", role="referee")

    for issue in (services.issue_sign_in_link, services.issue_pin_card):
        with pytest.raises(services.DomainError) as refused:
            issue(tournament, organiser, user)
        assert refused.value.code == "own_sign_in"
    assert not SignInCode.objects.filter(user=user).exists()


def test_the_sign_in_link_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, organiser: User, tournament: Tournament, referee: User
) -> None:
    _, secret = services.issue_sign_in_link(tournament, organiser, referee)

    preview = client_ja.get(link_path(secret)).content.decode()
    client_ja.post(link_path(secret))
    client_ja.logout()
    refused = client_ja.get(link_path(secret)).content.decode()

    assert "Ito Hanaとしてサインイン</button>" in preview and "一度だけ使えます" in preview
    assert "Sign in as" not in preview and "The link works once" not in preview
    assert "使用済み・期限切れ" in refused
    assert "has been used, has expired or is not valid" not in refused
