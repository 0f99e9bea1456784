"""A set may be a whole UECda match (100 games at one table): the pages that walk every game of
a set — the round's progress, its paper, the public round page, the console — still answer, and
the games still to play are counted."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import OfficialFactory, UserFactory, browser, cycling_table, play_quick_games
from tournaments.models import Official
from tournaments.selectors import round_blockers

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db: None) -> User:
    return UserFactory(username="ref-long")


def test_a_100_game_set_renders_on_the_round_pages(referee: User) -> None:
    table = cycling_table(referee, games_per_set=100)
    round_ = table.round
    tournament = round_.stage.tournament
    organiser = UserFactory(username="org-long")
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    play_quick_games(table, referee, 4)
    client = browser()
    client.force_login(organiser)
    args = [tournament.slug, round_.pk]

    pages = [
        reverse("organiser:progress", args=args),
        reverse("organiser:score-sheets", args=args),
        reverse("organiser:results-sheet", args=args),
        reverse("tournaments:round", args=args),
        f"/referee/tables/{table.pk}/",
        f"/api/tables/{table.pk}/games/",
    ]

    assert [client.get(url).status_code for url in pages] == [200] * len(pages)
    assert len(round_blockers(round_)) == 100  # 4 finished (unconfirmed) + 96 to play
    assert "Game 100" in client.get(reverse("organiser:score-sheets", args=args)).content.decode()
