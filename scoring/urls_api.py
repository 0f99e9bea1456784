"""Standings endpoints under /api/ (mounted before the router: docs/api.md)."""

from __future__ import annotations

from django.urls import path

from scoring import api

urlpatterns = [
    path(
        "tournaments/<slug:slug>/standings/",
        api.TournamentStandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "stages/<int:stage_id>/standings/",
        api.StageStandingsView.as_view(),
        name="api-stage-standings",
    ),
    path(
        "seasons/<int:season_id>/standings/",
        api.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path(
        "tournaments/<slug:slug>/team-standings/",
        api.TournamentTeamStandingsView.as_view(),
        name="api-tournament-team-standings",
    ),
    path(
        "stages/<int:stage_id>/team-standings/",
        api.StageTeamStandingsView.as_view(),
        name="api-stage-team-standings",
    ),
    path("leagues/<int:id>/ratings/", api.LeagueRatingsView.as_view(), name="api-league-ratings"),
    path(
        "players/<int:player_id>/rating/", api.PlayerRatingView.as_view(), name="api-player-rating"
    ),
]
