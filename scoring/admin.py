from __future__ import annotations

from django.contrib import admin

from scoring.models import (
    RecomputeRun,
    Standing,
    TeamStanding,
    WebhookDelivery,
    WebhookEndpoint,
    WorkerHeartbeat,
)


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ["hostname", "seen_at", "beats"]
    readonly_fields = ["hostname", "seen_at", "beats"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin[Standing]):
    list_display = [
        "scope",
        "tournament",
        "stage",
        "season",
        "rank",
        "player",
        "points",
        "games",
        "provisional_games",
        "confirmed_points",
        "penalty_points",
    ]
    list_filter = ["scope"]
    # Derived rows: rebuilt by the recompute, never edited by hand.
    readonly_fields = [f.name for f in Standing._meta.fields]


@admin.register(TeamStanding)
class TeamStandingAdmin(admin.ModelAdmin[TeamStanding]):
    list_display = [
        "scope",
        "tournament",
        "stage",
        "rank",
        "team",
        *TeamStanding.RECORD_FIELDS,
    ]
    list_filter = ["scope"]
    # Derived rows: rebuilt by the recompute, never edited by hand.
    readonly_fields = [f.name for f in TeamStanding._meta.fields]


@admin.register(RecomputeRun)
class RecomputeRunAdmin(admin.ModelAdmin[RecomputeRun]):
    list_display = ["pk", "tournament", "status", "done", "total", "changed", "started_at"]
    list_filter = ["status"]


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin[WebhookEndpoint]):
    list_display = ["url", "tournament", "events", "active", "created_at"]
    list_filter = ["active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin[WebhookDelivery]):
    list_display = ["event", "endpoint", "status", "attempts", "response_code", "created_at"]
    list_filter = ["status", "event"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]
