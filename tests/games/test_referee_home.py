"""The referee's home page lists exactly the signed-in user's tables in rounds that are
published or in play, with where each table's game stands and a link to its console."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from tests.factories import GameFactory, OfficialFactory, RoundFactory, TableFactory, UserFactory
from tournaments.models import Round

from .conftest import Crew

pytestmark = pytest.mark.django_db


def listed_tables(html: str) -> list[str]:
    return re.findall(r'data-testid="open-console-(\d+)"', html)


def test_a_referee_sees_exactly_their_open_tables_with_their_games_state(
    client: Client, crew: Crew
) -> None:
    stage = crew.table.round.stage
    now = timezone.now()
    in_play = RoundFactory(stage=stage, status=Round.Status.IN_PLAY, published_at=now)
    draft = RoundFactory(stage=stage)
    done = RoundFactory(stage=stage, status="complete", published_at=now, completed_at=now)
    playing = TableFactory(round=in_play, number=4, referee=crew.referee)
    waiting = TableFactory(round=in_play, number=5, referee=crew.referee)
    hidden_draft = TableFactory(round=draft, number=1, referee=crew.referee)
    hidden_done = TableFactory(round=done, number=1, referee=crew.referee)
    others = TableFactory(round=in_play, number=6, referee=crew.other_referee)
    GameFactory(table=playing, set_number=2, game_number=3)
    GameFactory(table=waiting, game_number=1, status=Game.Status.FINISHED, finished_at=now)
    client.force_login(crew.referee)

    html = client.get("/referee/").content.decode()

    assert sorted(listed_tables(html)) == sorted(str(t.pk) for t in (crew.table, playing, waiting))
    for hidden in (hidden_draft, hidden_done, others):
        assert f"/referee/tables/{hidden.pk}/" not in html
    assert "Not started" in html
    assert "Set 2 · game 3 in play" in html
    assert "Set 1 · game 1 waiting for confirmation" in html
    assert crew.tournament.name in html and "Aoki" in html
    assert "No table assigned yet" not in html
    assert "Rounds you run" not in html


def test_nothing_assigned_says_whom_to_ask(client: Client, crew: Crew) -> None:
    client.force_login(crew.other_referee)

    response = client.get("/referee/")

    assert response.status_code == 200
    assert "No table assigned yet — ask the head referee" in response.content.decode()
    assert listed_tables(response.content.decode()) == []


def test_the_head_referee_and_organisers_see_the_rounds_they_run(
    client: Client, crew: Crew
) -> None:
    round_url = f"/organiser/{crew.tournament.slug}/rounds/{crew.table.round_id}/"

    client.force_login(crew.head_referee)
    head = client.get("/referee/").content.decode()
    client.force_login(crew.organiser)
    organiser = client.get("/referee/").content.decode()
    client.force_login(crew.outsider_organiser)
    outsider = client.get("/referee/").content.decode()

    assert "Rounds you run" in head and crew.table.get_referee_url() in head
    assert f'href="{round_url}"' not in head  # the organiser pages are the organisers'
    assert f'href="{round_url}"' in organiser
    assert "Rounds you run" not in outsider


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get("/referee/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_nav_links_to_the_referee_page(client: Client, db: None) -> None:
    user = UserFactory(username="someone")
    OfficialFactory(user=user, role="referee")
    client.force_login(user)

    assert 'href="/referee/">Referee</a>' in client.get("/").content.decode()


def test_the_referee_home_speaks_japanese_to_a_japanese_browser(
    client_ja: Client, crew: Crew
) -> None:
    GameFactory(table=crew.table, set_number=2, game_number=3)
    client_ja.force_login(crew.referee)

    html = client_ja.get("/referee/").content.decode()

    assert "<h1>担当卓</h1>" in html and "第2セット 第3ゲーム 対局中" in html
    assert "コンソールを開く" in html and "自分の端末" in html
    for english in ("My tables", "in play", "Open console", "My devices", "New device token"):
        assert english not in html
