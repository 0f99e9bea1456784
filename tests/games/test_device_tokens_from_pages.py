"""Device tokens issued from the pages: a table's scorer token writes moves to the table of its
number only, a revoked token gets 401, use is recorded (at most once a minute), the raw key is
shown once with a QR code of the API address, and only organisers and the head referee manage
the tournament's devices; a referee manages their own."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games.models import DeviceToken, Game, Move
from tests.factories import GameFactory, TableFactory

from .conftest import T17_HANDS, T17_MOVES, Crew

pytestmark = pytest.mark.django_db


def devices_url(crew: Crew) -> str:
    return f"/organiser/{crew.tournament.slug}/devices/"


def issue(client: Client, crew: Crew, **data: object) -> tuple[int, str, str]:
    response = client.post(devices_url(crew) + "issue/", data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    match = re.search(r'value="(kk_[^"]+)"', html)
    return response.status_code, (match.group(1) if match else ""), html


def post_move(client: Client, game: Game, raw: str) -> int:
    return client.post(
        f"/api/games/{game.pk}/moves/",
        {"seq": 1, "move": T17_MOVES[0]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {raw}",
    ).status_code


@pytest.fixture
def second_game(crew: Crew) -> Game:
    table = TableFactory(round=crew.table.round, number=2)
    game: Game = GameFactory(table=table, game_number=1, hands=T17_HANDS, leader=0)
    return game


def test_a_tables_token_writes_to_its_table_only_and_dies_when_revoked(
    client: Client, crew: Crew, t17_game: Game, second_game: Game
) -> None:
    client.force_login(crew.organiser)
    status, raw, html = issue(client, crew, **{"for": "table", "table_number": 1, "name": "T1 tab"})
    token = DeviceToken.objects.get(name="T1 tab")
    client.logout()

    assert status == 200 and raw.startswith("kk_") and "<svg" in html
    assert f"http://testserver/api/#token={raw}" in html  # what the QR code says
    assert (token.user, token.issued_by, token.table_number) == (crew.organiser, crew.organiser, 1)
    assert token.tournament == crew.tournament and raw not in token.key_hash

    assert post_move(client, t17_game, raw) == 201
    assert post_move(client, second_game, raw) == 403
    assert Move.objects.filter(game=second_game).count() == 0
    token.refresh_from_db()
    assert token.last_used_at is not None

    client.force_login(crew.head_referee)
    revoked = client.post(f"{devices_url(crew)}{token.pk}/revoke/", HTTP_HX_REQUEST="true")
    client.logout()
    assert revoked.status_code == 200 and "“T1 tab” revoked." in revoked.content.decode()
    assert post_move(client, t17_game, raw) == 401
    actions = list(
        crew.tournament.audit.filter(action__startswith="device_").values_list("action", "actor")
    )
    assert sorted(actions) == [
        ("device_issued", crew.organiser.pk),
        ("device_revoked", crew.head_referee.pk),
    ]


def test_a_tables_token_never_takes_organiser_steps(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    client.force_login(crew.organiser)
    _, raw, _ = issue(client, crew, **{"for": "table", "table_number": 1, "name": "T1"})
    client.logout()
    auth = {"HTTP_AUTHORIZATION": f"Token {raw}"}

    complete = client.post(f"/api/rounds/{crew.table.round_id}/complete/", **auth)  # type: ignore[arg-type]
    officials = client.get(f"/api/tournaments/{crew.tournament.slug}/officials/", **auth)  # type: ignore[arg-type]
    devices = client.post(
        f"/api/tournaments/{crew.tournament.slug}/devices/",
        {"name": "sneaky", "table_number": 2},
        content_type="application/json",
        **auth,  # type: ignore[arg-type]
    )

    assert (complete.status_code, officials.status_code, devices.status_code) == (403, 403, 403)
    assert DeviceToken.objects.count() == 1


def test_a_referees_token_is_theirs_within_the_tournament(
    client: Client, crew: Crew, t17_game: Game, second_game: Game
) -> None:
    client.force_login(crew.head_referee)
    status, raw, _ = issue(
        client, crew, **{"for": "referee", "referee": crew.referee.pk, "name": "Ito's phone"}
    )
    client.logout()
    token = DeviceToken.objects.get(name="Ito's phone")

    assert status == 200 and token.user == crew.referee and token.issued_by == crew.head_referee
    assert token.table_number is None and token.tournament == crew.tournament
    assert post_move(client, second_game, raw) == 403  # not their table
    assert post_move(client, t17_game, raw) == 201


def test_use_is_recorded_at_most_once_a_minute(client: Client, crew: Crew, t17_game: Game) -> None:
    client.force_login(crew.organiser)
    _, raw, _ = issue(client, crew, **{"for": "referee", "referee": crew.referee.pk, "name": "p"})
    client.logout()
    token = DeviceToken.objects.get(name="p")
    auth = {"HTTP_AUTHORIZATION": f"Token {raw}"}

    client.get(f"/api/games/{t17_game.pk}/moves/", **auth)  # type: ignore[arg-type]
    token.refresh_from_db()
    first = token.last_used_at
    client.get(f"/api/games/{t17_game.pk}/moves/", **auth)  # type: ignore[arg-type]
    token.refresh_from_db()
    assert first is not None and token.last_used_at == first

    old = timezone.now() - datetime.timedelta(minutes=2)
    DeviceToken.objects.filter(pk=token.pk).update(last_used_at=old)
    cache.clear()  # two minutes on, the token's cached lookup (a minute at most) is gone too
    client.get(f"/api/games/{t17_game.pk}/moves/", **auth)  # type: ignore[arg-type]
    token.refresh_from_db()
    assert token.last_used_at is not None and token.last_used_at > old


def test_mistakes_are_explained_and_nothing_is_issued(client: Client, crew: Crew) -> None:
    client.force_login(crew.organiser)
    stranger = User.objects.create_user("stranger")

    answers = [
        issue(client, crew, **{"for": "table", "table_number": "", "name": "x"}),
        issue(client, crew, **{"for": "table", "table_number": 1, "name": "  "}),
        issue(client, crew, **{"for": "referee", "referee": stranger.pk, "name": "x"}),
    ]

    assert [a[0] for a in answers] == [422, 422, 422]
    assert "Give a table number" in answers[0][2] and "Name the device" in answers[1][2]
    assert not DeviceToken.objects.exists()


@pytest.mark.parametrize("who", ["referee", "outsider_organiser"])
def test_only_organisers_and_the_head_referee_see_the_devices_page(
    client: Client, crew: Crew, who: str
) -> None:
    client.force_login(getattr(crew, who))

    page = client.get(devices_url(crew))
    issued = issue(client, crew, **{"for": "table", "table_number": 1, "name": "x"})

    assert page.status_code == 404 and issued[0] == 404
    assert not DeviceToken.objects.exists()


def test_a_referee_issues_and_revokes_tokens_for_their_own_devices(
    client: Client, crew: Crew, t17_game: Game
) -> None:
    client.force_login(crew.referee)

    response = client.post(
        "/referee/devices/",
        {"tournament": crew.tournament.pk, "name": "my phone"},
        HTTP_HX_REQUEST="true",
    )
    raw = re.search(r'value="(kk_[^"]+)"', response.content.decode())
    token = DeviceToken.objects.get(name="my phone")
    other = client.post(f"/referee/devices/{token.pk}/revoke/")

    assert response.status_code == 200 and raw is not None
    assert token.user == crew.referee and token.tournament == crew.tournament
    assert other.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert post_move(client, t17_game, raw.group(1)) == 401

    # Not someone else's token, and not for a tournament they do not officiate.
    client.force_login(crew.other_referee)
    mine = DeviceToken.objects.create(user=crew.referee, name="x", prefix="kk_x", key_hash="0" * 64)
    assert client.post(f"/referee/devices/{mine.pk}/revoke/").status_code == 404
    outsider_tournament = crew.outsider_organiser.official_roles.get().tournament
    refused = client.post("/referee/devices/", {"tournament": outsider_tournament.pk, "name": "x"})
    assert refused.status_code == 422


def test_a_japanese_browser_reads_the_own_devices_section_in_japanese(
    client_ja: Client, crew: Crew
) -> None:
    client_ja.force_login(crew.referee)

    issued = client_ja.post(
        "/referee/devices/",
        {"tournament": crew.tournament.pk, "name": "my phone"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    token = DeviceToken.objects.get(name="my phone")
    revoked = client_ja.post(
        f"/referee/devices/{token.pk}/revoke/", HTTP_HX_REQUEST="true"
    ).content.decode()

    assert "「my phone」の端末トークン" in issued and "一度だけ表示されます" in issued
    assert "自分の端末" in issued and "コピー" in issued
    for english in ("Token for", "Shown once", "My devices", "Copy", "Revoke"):
        assert english not in issued
    assert "「my phone」を無効にしました。" in revoked and "” revoked." not in revoked
