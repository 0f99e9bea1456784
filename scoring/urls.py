"""Public scoring pages: leaderboards, exports, the embeddable board, player pages."""

from __future__ import annotations

from django.urls import path, register_converter

from scoring import views


class ExportFormat:
    regex = "csv|json"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ExportFormat, "fmt")

app_name = "scoring"
urlpatterns = [
    path("standings/", views.standings_index, name="index"),
    path("standings/season/<int:season_id>/", views.season_standings, name="season"),
    path(
        "standings/season/<int:season_id>/standings.<fmt:fmt>",
        views.season_export,
        name="season_export",
    ),
    path("standings/<slug:slug>/", views.tournament_standings, name="tournament"),
    path(
        "standings/<slug:slug>/standings.<fmt:fmt>",
        views.tournament_export,
        name="tournament_export",
    ),
    path(
        "standings/<slug:slug>/team-standings.csv",
        views.tournament_team_export,
        name="tournament_team_export",
    ),
    path(
        "standings/<slug:slug>/stage/<int:stage_id>/team-standings.csv",
        views.stage_team_export,
        name="stage_team_export",
    ),
    path("standings/<slug:slug>/print/", views.tournament_standings_print, name="tournament_print"),
    path(
        "standings/<slug:slug>/stage/<int:stage_id>/print/",
        views.stage_standings_print,
        name="stage_print",
    ),
    path("standings/<slug:slug>/stage/<int:stage_id>/", views.stage_standings, name="stage"),
    path(
        "standings/<slug:slug>/stage/<int:stage_id>/standings.<fmt:fmt>",
        views.stage_export,
        name="stage_export",
    ),
    path("embed/<slug:slug>/", views.embed, name="embed"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("ratings/", views.all_ratings, name="ratings"),
    path("ratings/league/<slug:slug>/", views.league_ratings, name="league_ratings"),
    path("ratings/season/<int:season_id>/", views.season_ratings, name="season_ratings"),
]
