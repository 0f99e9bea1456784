"""Referee pages, mounted at /referee/ (issue #6 adds the console here)."""

from __future__ import annotations

from django.urls import path

from tournaments import referee_views as views

app_name = "referee"

urlpatterns = [
    path("tables/<int:table_id>/", views.table, name="table"),
]
