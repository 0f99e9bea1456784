"""The device tokens API: list, issue (the raw key once, with the QR text) and revoke — for a
referee, a table or one's own device; organisers and the head referee manage the tournament's."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import DeviceToken, Game

from .conftest import T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def url(crew: Crew) -> str:
    return f"/api/tournaments/{crew.tournament.slug}/devices/"


def test_issue_list_use_and_revoke(client: Client, crew: Crew, t17_game: Game) -> None:
    client.force_login(crew.organiser)

    table = client.post(url(crew), {"name": "T1", "table_number": 1}, "application/json")
    referee = client.post(
        url(crew), {"name": "Ito", "referee": crew.referee.pk}, "application/json"
    )
    both = client.post(
        url(crew), {"name": "x", "table_number": 1, "referee": crew.referee.pk}, "application/json"
    )
    listed = client.get(url(crew)).json()

    assert table.status_code == referee.status_code == 201
    assert table["Cache-Control"] == "no-store"
    key = table.json()["key"]
    assert (
        key.startswith("kk_") and table.json()["qr_text"] == f"http://testserver/api/#token={key}"
    )
    assert table.json()["table_number"] == 1 and table.json()["user"] == crew.organiser.username
    assert referee.json()["user"] == crew.referee.username
    assert both.status_code == 400 and both.json()["code"] == "device_for_whom"
    assert {t["name"] for t in listed} == {"T1", "Ito"} and all("key" not in t for t in listed)
    client.logout()

    move = client.post(
        f"/api/games/{t17_game.pk}/moves/",
        {"seq": 1, "move": T17_MOVES[0]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert move.status_code == 201

    client.force_login(crew.head_referee)
    revoked = client.post(f"/api/devices/{table.json()['id']}/revoke/")
    again = client.post(f"/api/devices/{table.json()['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert again.status_code == 400 and again.json()["code"] == "already_revoked"


def test_a_referee_sees_and_issues_only_their_own(client: Client, crew: Crew) -> None:
    client.force_login(crew.organiser)
    client.post(url(crew), {"name": "T1", "table_number": 1}, "application/json")
    client.force_login(crew.referee)

    own = client.post(url(crew), {"name": "my phone"}, "application/json")
    for_table = client.post(url(crew), {"name": "x", "table_number": 2}, "application/json")
    listed = client.get(url(crew)).json()
    table_token = DeviceToken.objects.get(name="T1")
    foreign_revoke = client.post(f"/api/devices/{table_token.pk}/revoke/")

    assert own.status_code == 201 and own.json()["user"] == crew.referee.username
    assert own.json()["tournament"] == crew.tournament.slug
    assert for_table.status_code == 403
    assert [t["name"] for t in listed] == ["my phone"]
    assert foreign_revoke.status_code == 404
    assert client.post(f"/api/devices/{own.json()['id']}/revoke/").status_code == 200

    client.force_login(crew.outsider_organiser)
    assert client.get(url(crew)).status_code == 404
