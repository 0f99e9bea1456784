"""Organiser pages, mounted at /organiser/ (URLs split by audience, as Tabbycat does)."""

from __future__ import annotations

from django.urls import path

from games import official_views
from tournaments import organiser_views as views

app_name = "organiser"

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    path("<slug:slug>/import/", views.import_csv, name="import_csv"),
    path("<slug:slug>/entries/<int:entry_id>/check-in/", views.toggle_check_in, name="check_in"),
    path("<slug:slug>/entries/<int:entry_id>/drop/", views.drop, name="drop"),
    path("<slug:slug>/stages/<int:stage_id>/draw/", views.draw, name="draw"),
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
    path("<slug:slug>/tables/<int:table_id>/referee/", views.assign_referee, name="referee"),
    # Officials of any role (referees see the refusals of their own tables only); the view
    # lives in games, which owns the refusals table (a URL module may import either app).
    path("<slug:slug>/audit/", official_views.audit, name="audit"),
]
