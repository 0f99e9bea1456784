"""Game endpoints under /api/ (mounted before the router so /api/tables/<id>/live/ resolves)."""

from __future__ import annotations

from django.urls import path

from games import api, api_clock, api_confirm, api_records, api_table

urlpatterns = [
    path("games/<int:game_id>/moves/", api.GameMovesView.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/versions/", api.GameVersionsView.as_view(), name="api-game-versions"),
    path(
        "games/<int:game_id>/corrections/",
        api.GameCorrectionsView.as_view(),
        name="api-game-corrections",
    ),
    path(
        "games/<int:game_id>/confirm/",
        api_confirm.GameConfirmView.as_view(),
        name="api-game-confirm",
    ),
    path(
        "games/<int:game_id>/record/",
        api_records.GameRecordView.as_view(),
        name="api-game-record",
    ),
    path(
        "rounds/<int:round_id>/records.jsonl",
        api_records.RoundRecordsView.as_view(),
        name="api-round-records",
    ),
    path(
        "tournaments/<slug:slug>/records.jsonl",
        api_records.TournamentRecordsView.as_view(),
        name="api-tournament-records",
    ),
    path("tables/<int:table_id>/live/", api.TableLiveView.as_view(), name="api-table-live"),
    path("tables/<int:table_id>/events/", api.table_events, name="api-table-events"),
    # Running a table (games/api_table.py; docs/api.md)
    path(
        "tables/<int:table_id>/games/", api_table.TableGamesView.as_view(), name="api-table-games"
    ),
    path(
        "tables/<int:table_id>/match-record/",
        api_records.TableMatchRecordView.as_view(),
        name="api-table-match-record",
    ),
    path(
        "tables/<int:table_id>/records/",
        api_records.TableRecordsView.as_view(),
        name="api-table-records",
    ),
    path(
        "games/<int:game_id>/quick-result/",
        api_table.QuickResultView.as_view(),
        name="api-game-quick-result",
    ),
    path(
        "games/<int:game_id>/quick-result/withdraw/",
        api_table.QuickResultWithdrawView.as_view(),
        name="api-game-quick-result-withdraw",
    ),
    path("games/<int:game_id>/undo/", api_table.UndoView.as_view(), name="api-game-undo"),
    path(
        "games/<int:game_id>/time-faults/",
        api_clock.TimeFaultsView.as_view(),
        name="api-game-time-faults",
    ),
    path(
        "games/<int:game_id>/undo/decision/",
        api_table.UndoDecisionView.as_view(),
        name="api-game-undo-decision",
    ),
    path("games/<int:game_id>/void/", api_table.VoidView.as_view(), name="api-game-void"),
    path("games/<int:game_id>/forfeit/", api_table.ForfeitView.as_view(), name="api-game-forfeit"),
    path(
        "games/<int:game_id>/correction-preview/",
        api_table.CorrectionPreviewView.as_view(),
        name="api-game-correction-preview",
    ),
    path(
        "games/<int:game_id>/penalties/",
        api_table.GamePenaltiesView.as_view(),
        name="api-game-penalties",
    ),
    path(
        "penalties/<int:penalty_id>/withdraw/",
        api_table.PenaltyWithdrawView.as_view(),
        name="api-penalty-withdraw",
    ),
]
