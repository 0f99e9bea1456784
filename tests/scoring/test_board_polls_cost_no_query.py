"""A leaderboard poll whose version is current is answered 204 from the cache alone (the scope
a board URL names is remembered when a page of it is served, the version is published by each
recompute): no query. Content is only ever served after checking the tournament is public."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.factories import StageFactory, TournamentFactory, standings_field
from tournaments.models import League, Season, Tournament

HTMX = {"HX-Request": "true"}


@pytest.fixture
def open_event(db: None) -> Tournament:
    tournament = TournamentFactory(slug="big-open", status=Tournament.Status.RUNNING)
    stage = StageFactory(tournament=tournament, order=1)
    season = Season.objects.create(
        league=League.objects.create(name="Kanto", slug="kanto"), name="2026", slug="2026"
    )
    Tournament.objects.filter(pk=tournament.pk).update(season=season)
    standings_field(tournament, 12, stage=stage)
    tournament.refresh_from_db()
    return tournament


def _boards(tournament: Tournament) -> list[str]:
    stage = tournament.stages.get()
    return [
        "/standings/big-open/",
        f"/standings/big-open/stage/{stage.pk}/",
        f"/standings/season/{tournament.season_id}/",
        "/embed/big-open/",
    ]


def test_an_unchanged_poll_is_answered_204_with_no_query(
    open_event: Tournament, client: Client, django_assert_num_queries: Callable[..., Any]
) -> None:
    for board in _boards(open_event):
        page = client.get(board).content.decode()  # a viewer opens the board
        version = page.split('data-version="', 1)[1].split('"', 1)[0]

        with django_assert_num_queries(0):
            poll = client.get(f"{board}?v={version}", headers=HTMX)

        assert (poll.status_code, poll.content) == (204, b""), board


def test_a_proxy_revalidating_a_board_gets_304_with_no_query(
    open_event: Tournament, client: Client, django_assert_num_queries: Callable[..., Any]
) -> None:
    first = client.get("/standings/big-open/?v=0", headers=HTMX)

    with django_assert_num_queries(0):
        again = client.get(
            "/standings/big-open/?v=0", headers={**HTMX, "If-None-Match": first["ETag"]}
        )

    assert (first.status_code, again.status_code) == (200, 304)
    assert again["ETag"] == first["ETag"]


def test_a_board_set_back_to_draft_is_never_served_from_the_cache(
    open_event: Tournament, client: Client
) -> None:
    stage = open_event.stages.get()
    urls = [
        "/standings/big-open/",
        "/standings/big-open/?page=2",
        f"/standings/big-open/stage/{stage.pk}/",
        "/embed/big-open/",
        "/standings/big-open/standings.csv",
        "/standings/big-open/standings.json",
        "/standings/big-open/print/",
        "/standings/big-open/?find=3",
    ]
    for url in urls:  # every answer is rendered and cached while the tournament is public
        client.get(url)
        client.get(url, headers=HTMX)

    Tournament.objects.filter(pk=open_event.pk).update(status=Tournament.Status.DRAFT)

    for url in urls:
        assert client.get(url).status_code == 404, url
    # A poll asking for anything newer than what it shows: nothing but a 404.
    assert client.get("/standings/big-open/?v=0", headers=HTMX).status_code == 404
    assert client.get("/embed/big-open/?v=0", headers=HTMX).status_code == 404


def test_a_poll_of_a_board_never_published_is_not_found(
    open_event: Tournament, client: Client
) -> None:
    Tournament.objects.filter(pk=open_event.pk).update(status=Tournament.Status.DRAFT)

    poll = client.get("/standings/big-open/?v=1", headers=HTMX)
    season = client.get(f"/standings/season/{open_event.season_id}/?v=1", headers=HTMX)

    assert (poll.status_code, season.status_code) == (404, 404)
