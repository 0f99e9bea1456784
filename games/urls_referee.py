"""Referee pages, mounted at /referee/: the table console and its actions, game confirmation.

(The `referee` namespace moved here from `tournaments.urls_referee` with issue #6: the console
is a games view, and tournaments must not import games.)
"""

from __future__ import annotations

from django.urls import path

from games import (
    device_views,
    official_views,
    offline_assets,
    offline_views,
    referee_home,
    views,
)

app_name = "referee"

urlpatterns = [
    # My tables, and my devices' tokens (issue #12).
    path("", referee_home.home, name="home"),
    path("devices/", device_views.issue_own, name="device-issue"),
    path("devices/<int:token_id>/revoke/", device_views.revoke_own, name="device-revoke"),
    # The rules engine for the console's offline mode, run on the phone under Pyodide (#19).
    path("offline/engine.zip", offline_assets.offline_engine, name="offline-engine"),
    # The console as an installable app that opens without a network (#19, docs/offline.md).
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
    path("tables/<int:table_id>/", views.console, name="table"),
    path("tables/<int:table_id>/offline/", views.offline_seed, name="offline-seed"),
    path("tables/<int:table_id>/start/", views.start, name="start"),
    path("tables/<int:table_id>/play/", views.play, name="play"),
    path("tables/<int:table_id>/undo/", views.undo, name="undo"),
    path("tables/<int:table_id>/decide/", views.decide, name="decide"),
    path("tables/<int:table_id>/quick/", views.quick, name="quick"),
    path("tables/<int:table_id>/time-fault/", views.time_fault, name="time-fault"),
    path("games/<int:game_id>/confirm/", views.confirm, name="confirm"),
    # The officials' game page: result history, audit, refusals; rulings (issue #11).
    path("games/<int:game_id>/", official_views.game_page, name="game"),
    path(
        "games/<int:game_id>/correction/preview/",
        official_views.correction_preview,
        name="correction-preview",
    ),
    path("games/<int:game_id>/correction/", official_views.correction_save, name="correction-save"),
    path("games/<int:game_id>/void/", official_views.void, name="void"),
    path("games/<int:game_id>/forfeit/", official_views.forfeit, name="forfeit"),
    path("games/<int:game_id>/penalties/", official_views.give_penalty, name="penalty-give"),
    path(
        "games/<int:game_id>/penalties/<int:penalty_id>/withdraw/",
        official_views.withdraw_penalty,
        name="penalty-withdraw",
    ),
]
