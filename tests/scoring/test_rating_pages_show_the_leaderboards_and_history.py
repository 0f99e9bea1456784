"""The rating pages: a league's and a season's leaderboard, the player page's rating and
history chart, the JSON API — and nothing of a hand before a round settles."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from scoring.models import Rating
from tests.factories import browser, tournament_played_out
from tournaments import services
from tournaments.models import League, Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_season(django_capture_on_commit_callbacks: Any) -> tuple[Season, Tournament]:
    league = League.objects.create(name="関東リーグ", slug="kanto")
    season = Season.objects.create(league=league, name="2026", slug="2026")
    round_, _referee, organiser = tournament_played_out(
        tables=2, games_per_set=1, rated=True, season=season
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(round_, organiser)
    return season, round_.stage.tournament


def test_the_league_and_season_leaderboards_list_the_rated_players_by_rating(
    rated_season: tuple[Season, Tournament],
) -> None:
    season, _tournament = rated_season
    best = max(Rating.objects.select_related("player"), key=lambda r: r.display)
    for url in (
        reverse("scoring:league_ratings", args=[season.league.slug]),
        reverse("scoring:season_ratings", args=[season.pk]),
    ):
        page = browser().get(url)
        assert page.status_code == 200
        body = page.content.decode()
        assert body.count("<tr>") == 1 + 8  # the head and the 8 rated players
        first_row = body.split("<tbody>")[1].split("</tr>")[0]
        assert best.player.display_name in first_row
        assert f"<strong>{best.display}</strong>" in first_row
    # The season's standings link to both leaderboards.
    board = browser().get(reverse("scoring:season", args=[season.pk])).content.decode()
    assert reverse("scoring:season_ratings", args=[season.pk]) in board
    assert reverse("scoring:league_ratings", args=[season.league.slug]) in board


def test_the_standings_index_leads_to_every_rated_player_by_rating(
    rated_season: tuple[Season, Tournament],
) -> None:
    season, _tournament = rated_season
    Tournament.objects.create(name="Friendly", slug="friendly", status=Tournament.Status.RUNNING)
    index = browser().get(reverse("scoring:index")).content.decode()
    assert reverse("scoring:ratings") in index
    assert reverse("scoring:season_ratings", args=[season.pk]) in index
    page = browser().get(reverse("scoring:ratings")).content.decode()
    ordered = sorted(Rating.objects.select_related("player"), key=lambda r: -r.display)
    assert page.count("<tr>") == 1 + 8
    first_row = page.split("<tbody>")[1].split("</tr>")[0]
    assert f"<strong>{ordered[0].display}</strong>" in first_row
    # In Japanese too.
    japanese = browser("ja").get(reverse("scoring:ratings")).content.decode()
    assert "すべてのレーティング対象大会" in japanese


def test_the_leaderboard_of_a_league_without_rated_games_says_so() -> None:
    League.objects.create(name="Club", slug="club")
    page = browser().get(reverse("scoring:league_ratings", args=["club"]))
    assert page.status_code == 200
    assert "No rated game has been played here yet." in page.content.decode()


def test_the_player_page_shows_the_rating_and_its_history_chart(
    rated_season: tuple[Season, Tournament],
) -> None:
    rating = Rating.objects.select_related("player").first()
    assert rating is not None
    body = browser().get(reverse("scoring:player", args=[rating.player.pk])).content.decode()
    assert 'data-testid="player-rating"' in body
    assert f"<strong>{rating.display}</strong> <small>±{rating.display_spread}</small>" in body
    assert '<svg class="progression rating-history"' in body
    assert f"rating {rating.display} after 1 rated game" in body


def test_the_api_serves_a_leagues_leaderboard_and_a_players_history(
    rated_season: tuple[Season, Tournament],
) -> None:
    season, _tournament = rated_season
    board = browser().get(f"/api/leagues/{season.league.pk}/ratings/").json()
    assert len(board["results"]) == 8
    ratings = [row["rating"] for row in board["results"]]
    assert ratings == sorted(ratings, reverse=True)
    player = board["results"][0]["player"]
    mine = browser().get(f"/api/players/{player}/rating/").json()
    assert mine["rating"] == board["results"][0]["rating"]
    assert [p["sequence"] for p in mine["history"]] and len(mine["history"]) == mine["games"] == 1


def test_nothing_is_rated_and_no_hand_is_shown_before_the_round_settles() -> None:
    round_, _referee, _organiser = tournament_played_out(tables=1, games_per_set=1, rated=True)
    game = Game.objects.get(table__round=round_)
    player = game.results.get(seat=0).entry.player
    body = browser().get(reverse("scoring:player", args=[player.pk])).content.decode()
    assert 'data-testid="player-rating"' not in body
    api = browser().get(f"/api/players/{player.pk}/rating/").content.decode()
    for card in game.hands[0]:
        assert f'"{card}"' not in api
    assert browser().get(f"/api/players/{player.pk}/rating/").json()["rating"] is None
