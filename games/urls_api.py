"""Game endpoints under /api/ (mounted before the router so /api/tables/<id>/live/ resolves)."""

from __future__ import annotations

from django.urls import path

from games import api

urlpatterns = [
    path("games/<int:game_id>/moves/", api.GameMovesView.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/versions/", api.GameVersionsView.as_view(), name="api-game-versions"),
    path(
        "games/<int:game_id>/corrections/",
        api.GameCorrectionsView.as_view(),
        name="api-game-corrections",
    ),
    path("tables/<int:table_id>/live/", api.TableLiveView.as_view(), name="api-table-live"),
    path("tables/<int:table_id>/events/", api.table_events, name="api-table-events"),
]
