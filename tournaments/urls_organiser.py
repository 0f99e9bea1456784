"""Organiser pages, mounted at /organiser/ (URLs split by audience, as Tabbycat does)."""

from __future__ import annotations

from django.urls import path

from games import device_views, import_views, official_views
from tournaments import (
    entrant_views,
    layout_views,
    league_views,
    officials_views,
    progress_views,
    settings_views,
    stage_views,
)
from tournaments import organiser_views as views

app_name = "organiser"

urlpatterns = [
    path("", views.home, name="home"),
    # Leagues and seasons (staff), before the tournament pages: "leagues" is not a tournament.
    path("leagues/", league_views.leagues, name="leagues"),
    path("leagues/new/", league_views.create_league, name="league_create"),
    path("leagues/<int:league_id>/", league_views.edit_league, name="league_edit"),
    path("leagues/<int:league_id>/seasons/", league_views.create_season, name="season_create"),
    path("leagues/seasons/<int:season_id>/", league_views.edit_season, name="season_edit"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    # Stages, cuts and playoffs; the tournament's settings (issue #12).
    path("<slug:slug>/stages/", stage_views.stages, name="stages"),
    path("<slug:slug>/stages/<int:stage_id>/edit/", stage_views.edit_stage, name="stage_edit"),
    path(
        "<slug:slug>/stages/<int:stage_id>/delete/",
        stage_views.delete_stage,
        name="stage_delete",
    ),
    path("<slug:slug>/stages/<int:stage_id>/preview/", stage_views.preview, name="stage_preview"),
    path("<slug:slug>/stages/<int:stage_id>/seeds/", stage_views.seed, name="stage_seeds"),
    path(
        "<slug:slug>/stages/<int:stage_id>/playoff/",
        stage_views.create_playoff,
        name="stage_playoff",
    ),
    path("<slug:slug>/settings/", settings_views.settings, name="settings"),
    # Entrants on the day (tournaments.entrant_views): walk-ins, edits, withdrawals,
    # substitutes, late check-ins and the CSV import with its preview.
    path("<slug:slug>/import/", entrant_views.import_csv, name="import_csv"),
    path("<slug:slug>/import/preview/", entrant_views.import_preview, name="import_preview"),
    path("<slug:slug>/entries/add/", entrant_views.walk_in, name="walk_in"),
    path("<slug:slug>/entries/<int:entry_id>/", entrant_views.entry_row, name="entry_row"),
    path("<slug:slug>/entries/<int:entry_id>/edit/", entrant_views.edit, name="edit_entry"),
    path(
        "<slug:slug>/entries/<int:entry_id>/check-in/",
        entrant_views.toggle_check_in,
        name="check_in",
    ),
    path("<slug:slug>/entries/<int:entry_id>/drop/", entrant_views.withdraw, name="drop"),
    path(
        "<slug:slug>/entries/<int:entry_id>/reinstate/",
        entrant_views.reinstate,
        name="reinstate",
    ),
    path(
        "<slug:slug>/entries/<int:entry_id>/substitute/",
        entrant_views.substitute,
        name="substitute",
    ),
    # Teams of a team event (掼蛋): a new pair, a pair of entrants, rename, dissolve.
    path("<slug:slug>/teams/add/", entrant_views.add_team, name="add_team"),
    path("<slug:slug>/teams/pair/", entrant_views.pair_entrants, name="pair_entrants"),
    path("<slug:slug>/teams/<int:team_id>/", entrant_views.team_row, name="team_row"),
    path("<slug:slug>/teams/<int:team_id>/rename/", entrant_views.rename_team, name="rename_team"),
    path(
        "<slug:slug>/teams/<int:team_id>/dissolve/",
        entrant_views.dissolve_team,
        name="dissolve_team",
    ),
    path("<slug:slug>/stages/<int:stage_id>/draw/", views.draw, name="draw"),
    # The draw preview and the uneven-tables policy (tables of 3, of 5, byes).
    path(
        "<slug:slug>/stages/<int:stage_id>/layout/",
        layout_views.draw_layout_preview,
        name="draw_layout",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/uneven-tables/",
        layout_views.set_policy,
        name="uneven_tables",
    ),
    path("<slug:slug>/stages/<int:stage_id>/advance/", views.advance, name="advance"),
    path("<slug:slug>/rounds/<int:round_id>/", views.round_detail, name="round"),
    *(
        path(
            f"<slug:slug>/rounds/<int:round_id>/{step}/",
            views.round_step,
            {"step": step},
            name=step,
        )
        for step in views.ROUND_STEPS
    ),
    path("<slug:slug>/rounds/<int:round_id>/cards/", views.table_cards, name="cards"),
    # Following a round and its paper (organisers and the head referee).
    path("<slug:slug>/rounds/<int:round_id>/progress/", progress_views.progress, name="progress"),
    path(
        "<slug:slug>/rounds/<int:round_id>/progress/games/<int:game_id>/confirm/",
        progress_views.progress_confirm,
        name="progress-confirm",
    ),
    path(
        "<slug:slug>/rounds/<int:round_id>/progress/tables/<int:table_id>/pin/",
        progress_views.progress_pin,
        name="progress-pin",
    ),
    path(
        "<slug:slug>/rounds/<int:round_id>/score-sheets/",
        progress_views.score_sheets,
        name="score-sheets",
    ),
    path(
        "<slug:slug>/rounds/<int:round_id>/results-sheet/",
        progress_views.results_sheet_view,
        name="results-sheet",
    ),
    path("<slug:slug>/tables/<int:table_id>/referee/", views.assign_referee, name="referee"),
    # Games played elsewhere, imported from their records (games.imports): organisers.
    path(
        "<slug:slug>/rounds/<int:round_id>/tables/<int:table_id>/import/",
        import_views.import_records,
        name="import-records",
    ),
    # Officials, their sign-in codes and devices (issue #12): organisers; the head referee
    # may look (devices: also issue and revoke). Device views live in games (DeviceToken).
    path("<slug:slug>/rounds/<int:round_id>/referees/", views.assign_referees, name="referees"),
    path("<slug:slug>/officials/", officials_views.officials, name="officials"),
    path("<slug:slug>/officials/pin-cards/", officials_views.pin_cards, name="pin-cards"),
    path(
        "<slug:slug>/officials/<int:official_id>/revoke/",
        officials_views.revoke,
        name="official-revoke",
    ),
    path(
        "<slug:slug>/officials/<int:official_id>/link/",
        officials_views.issue_link,
        name="official-link",
    ),
    path(
        "<slug:slug>/officials/<int:official_id>/pin/",
        officials_views.pin_card,
        name="official-pin",
    ),
    path("<slug:slug>/devices/", device_views.tournament_devices, name="devices"),
    path("<slug:slug>/devices/issue/", device_views.issue, name="device-issue"),
    path("<slug:slug>/devices/<int:token_id>/revoke/", device_views.revoke, name="device-revoke"),
    # Officials of any role (referees see the refusals of their own tables only); the view
    # lives in games, which owns the refusals table (a URL module may import either app).
    path("<slug:slug>/audit/", official_views.audit, name="audit"),
]
