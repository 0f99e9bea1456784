"""The officials page: an organiser adds a new person or an existing user as an official and
revokes a role (their open tables, devices and sign-in codes go with it); the head referee may
look but not change; anyone else is told the page does not exist."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.auth import issue_device_token
from tests.factories import OfficialFactory, RoundFactory, StageFactory, TableFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Official, Round, SignInCode, Tournament

pytestmark = pytest.mark.django_db

URL = "/organiser/nagoya-open/officials/"


def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_an_organiser_adds_a_new_person_who_gets_a_readable_sign_in_name_and_no_password(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    signed_in(client, organiser)

    page = client.get(URL)
    first = client.post(
        URL, {"display_name": "Ito Hana", "email": "hana@example.org", "role": "referee"}
    )
    second = client.post(
        URL, {"display_name": "Ueda Ken", "role": "head_referee"}, HTTP_HX_REQUEST="true"
    )

    assert page.status_code == 200 and "<h1>Officials</h1>" in page.content.decode()
    assert first.status_code == 200 and second.status_code == 200
    hana = User.objects.get(first_name="Ito Hana")
    ken = User.objects.get(first_name="Ueda Ken")
    assert (hana.username, ken.username) == ("nagoya-open-1", "nagoya-open-2")
    assert hana.email == "hana@example.org" and not hana.has_usable_password()
    assert Official.objects.filter(tournament=tournament, user=hana, role="referee").exists()
    assert Official.objects.filter(tournament=tournament, user=ken, role="head_referee").exists()
    assert 'id="officials"' in second.content.decode() and "<html" not in second.content.decode()
    assert "nagoya-open-2" in second.content.decode()
    added = AuditEntry.objects.filter(tournament=tournament, action="official_added")
    assert sorted(a.data["user"] for a in added) == ["nagoya-open-1", "nagoya-open-2"]


def test_an_existing_user_is_added_by_sign_in_name_and_mistakes_are_explained(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    UserFactory(username="suzuki")
    signed_in(client, organiser)

    added = client.post(URL, {"existing": "Suzuki", "role": "referee"})
    unknown = client.post(URL, {"existing": "nobody", "role": "referee"}, HTTP_HX_REQUEST="true")
    nameless = client.post(URL, {"display_name": "  ", "role": "referee"})
    twice = client.post(URL, {"existing": "suzuki", "role": "referee"})

    assert added.status_code == 200
    assert Official.objects.filter(tournament=tournament, user__username="suzuki").count() == 1
    assert (
        unknown.status_code == 422
        and "No user signs in as &#x27;nobody&#x27;." in unknown.content.decode()
    )
    assert nameless.status_code == 422 and twice.status_code == 422
    assert not User.objects.filter(username__startswith="nagoya-open-").exists()


def test_revoking_clears_open_tables_devices_and_codes_but_not_completed_rounds(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    referee = UserFactory(username="ref-ito", password=None)  # passwordless, as added here
    official = OfficialFactory(tournament=tournament, user=referee, role="referee")
    stage = StageFactory(tournament=tournament)
    now = timezone.now()
    open_round = RoundFactory(stage=stage, status=Round.Status.IN_PLAY, published_at=now)
    done_round = RoundFactory(
        stage=stage, status=Round.Status.COMPLETE, published_at=now, completed_at=now
    )
    open_table = TableFactory(round=open_round, number=1, referee=referee)
    done_table = TableFactory(round=done_round, number=1, referee=referee)
    scoped, _ = issue_device_token(referee, "phone", tournament=tournament)
    elsewhere, _ = issue_device_token(referee, "club phone")
    services.issue_pin_card(tournament, organiser, referee)
    signed_in(client, organiser)

    response = client.post(f"{URL}{official.pk}/revoke/", HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert not Official.objects.filter(pk=official.pk).exists()
    open_table.refresh_from_db()
    done_table.refresh_from_db()
    assert open_table.referee_id is None and done_table.referee_id == referee.pk
    scoped.refresh_from_db()
    elsewhere.refresh_from_db()
    assert scoped.revoked_at is not None and elsewhere.revoked_at is None
    assert not SignInCode.objects.filter(user=referee, revoked_at__isnull=True).exists()
    audit = AuditEntry.objects.get(tournament=tournament, action="official_revoked")
    assert audit.actor == organiser and audit.data["tables_cleared"] == [open_table.pk]


def test_the_last_organiser_cannot_be_revoked(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    own = Official.objects.get(tournament=tournament, user=organiser)
    signed_in(client, organiser)

    response = client.post(f"{URL}{own.pk}/revoke/", HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert "A tournament keeps at least one organiser." in response.content.decode()
    assert Official.objects.filter(pk=own.pk).exists()


def test_the_head_referee_may_look_but_not_change(
    client: Client, tournament: Tournament, head_referee: User
) -> None:
    signed_in(client, head_referee)
    official = Official.objects.get(user=head_referee)

    page = client.get(URL)
    add = client.post(URL, {"display_name": "Sneaky", "role": "organiser"})
    revoke = client.post(f"{URL}{official.pk}/revoke/")
    link = client.post(f"{URL}{official.pk}/link/")

    assert page.status_code == 200
    assert "Only an organiser adds or revokes officials" in page.content.decode()
    assert (add.status_code, revoke.status_code, link.status_code) == (403, 403, 403)
    assert not User.objects.filter(first_name="Sneaky").exists()


@pytest.mark.parametrize("who", ["referee_here", "organiser_elsewhere", "nobody"])
def test_others_are_told_the_page_does_not_exist(
    client: Client, tournament: Tournament, who: str
) -> None:
    user = UserFactory(username=f"u-{who}")
    if who == "referee_here":
        OfficialFactory(tournament=tournament, user=user, role="referee")
    elif who == "organiser_elsewhere":
        OfficialFactory(user=user, role="organiser")
    signed_in(client, user)
    official = Official.objects.get(tournament=tournament, role="organiser")
    before = Official.objects.filter(tournament=tournament).count()

    responses = [
        client.get(URL),
        client.post(URL, {"display_name": "X", "role": "referee"}),
        client.post(f"{URL}{official.pk}/revoke/"),
        client.post(f"{URL}{official.pk}/pin/"),
        client.post(f"{URL}pin-cards/"),
    ]

    assert [r.status_code for r in responses] == [404] * 5
    assert Official.objects.filter(tournament=tournament).count() == before
    assert not SignInCode.objects.exists()


def test_the_officials_page_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, organiser: User, tournament: Tournament
) -> None:
    own = Official.objects.get(tournament=tournament, user=organiser)
    signed_in(client_ja, organiser)

    page = client_ja.get(URL).content.decode()
    refused = client_ja.post(f"{URL}{own.pk}/revoke/", HTTP_HX_REQUEST="true").content.decode()

    assert "<h1>審判団</h1>" in page and ">役員を追加</legend>" in page and ">解任</button>" in page
    assert "<h1>Officials</h1>" not in page and "Add an official" not in page
    assert ">Revoke</button>" not in page
    assert "主催者を全員外すことはできません。" in refused
    assert "A tournament keeps at least one organiser." not in refused
