from __future__ import annotations

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/rounds/<int:round_id>/", views.round_detail, name="round"),
]
