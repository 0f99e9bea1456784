"""Referee pages, mounted at /referee/: the table console and its actions, game confirmation.

(The `referee` namespace moved here from `tournaments.urls_referee` with issue #6: the console
is a games view, and tournaments must not import games.)
"""

from __future__ import annotations

from django.urls import path

from games import views

app_name = "referee"

urlpatterns = [
    path("tables/<int:table_id>/", views.console, name="table"),
    path("tables/<int:table_id>/start/", views.start, name="start"),
    path("tables/<int:table_id>/play/", views.play, name="play"),
    path("tables/<int:table_id>/undo/", views.undo, name="undo"),
    path("tables/<int:table_id>/decide/", views.decide, name="decide"),
    path("tables/<int:table_id>/quick/", views.quick, name="quick"),
    path("games/<int:game_id>/confirm/", views.confirm, name="confirm"),
]
