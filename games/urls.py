"""Public game pages: the live table view."""

from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/live/", views.live, name="live"),
    path("games/<int:game_id>/record.json", views.record_download, name="record"),
]
