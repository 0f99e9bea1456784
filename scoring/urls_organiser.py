"""Organiser scoring pages, mounted at /organiser/<slug>/scoring/."""

from __future__ import annotations

from django.urls import path

from scoring import organiser_views as views

app_name = "scoring_organiser"
urlpatterns = [
    path("", views.scoring_dashboard, name="dashboard"),
    path("recompute/", views.recompute_now, name="recompute"),
    path("webhooks/", views.add_endpoint, name="add_endpoint"),
    path("webhooks/<int:endpoint_id>/", views.endpoint_action, name="endpoint"),
]
