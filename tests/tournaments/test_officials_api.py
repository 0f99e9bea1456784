"""The officials API: list, add a person or an existing user, revoke, issue a sign-in link or
a PIN (the secret in that answer only), assign referees in bulk — organisers' writes, per
tournament; bilingual refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.factories import OfficialFactory, RoundFactory, TableFactory, UserFactory
from tournaments.models import AuditEntry, Official, Round, SignInCode, Stage, Tournament

pytestmark = pytest.mark.django_db

BASE = "/api/tournaments/nagoya-open/officials/"


def post(client: Client, url: str, data: object = None) -> tuple[int, object]:
    response = client.post(url, data or {}, content_type="application/json")
    return response.status_code, (response.json() if response.content else None)


def test_an_organiser_adds_lists_and_revokes_officials(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    UserFactory(username="suzuki")
    client.force_login(organiser)

    new = post(
        client, BASE, {"display_name": "Ito Hana", "email": "h@example.org", "role": "referee"}
    )
    existing = post(client, BASE, {"username": "suzuki", "role": "head_referee"})
    both = post(client, BASE, {"display_name": "X", "username": "suzuki", "role": "referee"})
    unknown = post(client, BASE, {"username": "nobody", "role": "referee"})
    listed = client.get(BASE).json()

    assert new[0] == 201 and existing[0] == 201
    assert new[1]["username"] == "nagoya-open-1" and new[1]["name"] == "Ito Hana"  # type: ignore[index]
    assert both[0] == 400
    assert unknown[0] == 400 and unknown[1]["code"] == "unknown_user"  # type: ignore[index]
    assert unknown[1]["message_ja"]  # type: ignore[index]
    assert {o["username"] for o in listed} == {"organiser-a", "nagoya-open-1", "suzuki"}

    revoked = post(client, f"{BASE}{new[1]['id']}/revoke/")  # type: ignore[index]
    assert revoked[0] == 204
    assert not Official.objects.filter(user__username="nagoya-open-1").exists()
    assert AuditEntry.objects.filter(action="official_revoked").count() == 1


def test_sign_in_link_and_pin_are_returned_once(
    client: Client, organiser: User, tournament: Tournament
) -> None:
    client.force_login(organiser)
    official = post(client, BASE, {"display_name": "Ito Hana", "role": "referee"})[1]
    oid = official["id"]  # type: ignore[index]

    link = client.post(f"{BASE}{oid}/sign-in-link/", {"hours": 2}, content_type="application/json")
    pin = client.post(f"{BASE}{oid}/pin/", {}, content_type="application/json")

    assert link.status_code == pin.status_code == 201
    assert link["Cache-Control"] == "no-store"
    url = link.json()["url"]
    assert url.startswith("http://testserver/accounts/link/")
    body = pin.json()
    assert len(body["pin"]) == 8 and body["username"] == "nagoya-open-1"
    assert body["sign_in_url"] == "http://testserver/accounts/pin/?user=nagoya-open-1"
    assert SignInCode.objects.filter(user__username="nagoya-open-1").count() == 2
    client.logout()
    assert client.post(url.removeprefix("http://testserver")).status_code == 302
    client.logout()
    signed = client.post("/accounts/pin/", {"username": body["username"], "pin": body["pin"]})
    assert signed.status_code == 302


def test_the_head_referee_reads_and_others_are_refused(
    client: Client, tournament: Tournament, head_referee: User
) -> None:
    client.force_login(head_referee)
    own = Official.objects.get(user=head_referee)

    listed = client.get(BASE)
    add = post(client, BASE, {"display_name": "X", "role": "referee"})
    pin = post(client, f"{BASE}{own.pk}/pin/")

    assert listed.status_code == 200 and (add[0], pin[0]) == (403, 403)

    stranger = UserFactory(username="stranger")
    OfficialFactory(user=stranger, role="organiser")
    client.force_login(stranger)
    assert client.get(BASE).status_code == 404
    assert post(client, BASE, {"display_name": "X", "role": "referee"})[0] == 404
    client.logout()
    assert client.get(BASE).status_code in (401, 403)
    assert not SignInCode.objects.exists()


def test_referees_are_assigned_in_bulk_by_table_number(
    client: Client, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    round_ = RoundFactory(stage=stage, status=Round.Status.PUBLISHED, published_at=timezone.now())
    for number in (1, 2, 3):
        TableFactory(round=round_, number=number)
    referee = UserFactory(username="ref-ito")
    OfficialFactory(tournament=tournament, user=referee, role="referee")
    outsider = UserFactory(username="outsider")
    url = f"/api/rounds/{round_.pk}/referees/"
    client.force_login(organiser)

    done = post(client, url, {"referee": referee.pk, "tables": [1, 3]})
    missing = post(client, url, {"referee": referee.pk, "tables": [4]})
    not_referee = post(client, url, {"referee": outsider.pk, "tables": [2]})

    assert done[0] == 200
    assert [(t["number"], t["referee"]) for t in done[1]] == [(1, referee.pk), (3, referee.pk)]  # type: ignore[union-attr]
    assert missing[0] == 400 and missing[1]["code"] == "no_such_table"  # type: ignore[index]
    assert not_referee[0] == 400 and not_referee[1]["code"] == "not_referee"  # type: ignore[index]
    assert dict(round_.tables.values_list("number", "referee_id")) == {
        1: referee.pk,
        2: None,
        3: referee.pk,
    }
    client.force_login(referee)
    assert post(client, url, {"referee": None, "tables": [1]})[0] == 404


def test_the_schema_documents_the_endpoints(client: Client, db: None) -> None:
    schema = client.get("/api/schema/").content.decode()

    for path in (
        "/api/tournaments/{slug}/officials/",
        "/api/tournaments/{slug}/officials/{official_id}/pin/",
        "/api/rounds/{round_id}/referees/",
        "/api/tournaments/{slug}/devices/",
        "/api/devices/{token_id}/revoke/",
    ):
        assert path in schema
