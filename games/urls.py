"""Public game pages: the live table view and the replay viewer of a finished game."""

from __future__ import annotations

from django.urls import path

from games import replay_views, views

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/live/", views.live, name="live"),
    path("games/<int:game_id>/replay/", replay_views.replay, name="replay"),
    path("embed/games/<int:game_id>/replay/", replay_views.replay_embed, name="replay_embed"),
    path("games/<int:game_id>/record.json", views.record_download, name="record"),
]
