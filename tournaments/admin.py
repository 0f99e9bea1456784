"""Admin for raw data. Workflow actions call the same services as the pages and the API.

A round's secret seed is never shown (nor editable) here before it is revealed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise

from config.language import in_active_language
from tournaments import services
from tournaments.models import (
    Entry,
    League,
    Official,
    Player,
    Round,
    Season,
    Seat,
    Stage,
    StageEntrant,
    Table,
    Team,
    Tournament,
)
from tournaments.permissions import AnyUser


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    fk_name = "tournament"
    fields = ["number", "player", "status", "seeded_into", "substitute_for"]
    raw_id_fields = ["substitute_for"]


class TeamMemberInline(admin.TabularInline[Entry, Team]):
    """A team's members, read only: teams are formed and dissolved through the services (the
    entrants page or the API), which check the team size and keep the audit record."""

    model = Entry
    extra = 0
    fk_name = "team"
    fields = ["number", "player", "status"]
    readonly_fields = ["number", "player", "status"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Team | None = None) -> bool:
        return False


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ["number", "name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    readonly_fields = ["tournament", "number"]
    inlines = [TeamMemberInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class OfficialInline(admin.TabularInline[Official, Tournament]):
    model = Official
    extra = 0
    autocomplete_fields = ["user"]


class StageInline(admin.TabularInline[Stage, Tournament]):
    model = Stage
    extra = 0
    fields = ["order", "name", "kind", "advance_top_n", "advance_top_k_per_table"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ["name", "league", "slug"]
    list_filter = ["league"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = [
        "name",
        "status",
        "ruleset_id",
        "ruleset_version",
        "table_size",
        "games_per_set",
        "sets_per_round",
        "title_reset_every",
        "seat_change_every",
        "starts_on",
        "venue",
    ]
    list_filter = ["status", "ruleset_id", "season"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [OfficialInline, StageInline, EntryInline]


@admin.register(Official)
class OfficialAdmin(admin.ModelAdmin[Official]):
    list_display = ["tournament", "user", "role"]
    list_filter = ["role", "tournament"]
    autocomplete_fields = ["user"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["display_name", "name_kana", "bot_name", "user"]
    search_fields = ["display_name", "name_kana", "email", "bot_name"]


@admin.action(description=_("Check in the selected entries"))
def check_in_entries(
    modeladmin: admin.ModelAdmin[Entry], request: HttpRequest, queryset: QuerySet[Entry]
) -> None:
    done = 0
    for entry in queryset.select_related("tournament", "player"):
        try:
            services.check_in_entry(entry, request.user)
            done += 1
        except services.DomainError as error:
            message = in_active_language(error.message_en, error.message_ja)
            modeladmin.message_user(request, message, messages.WARNING)
    modeladmin.message_user(
        request,
        ngettext("%(count)s entry checked in.", "%(count)s entries checked in.", done)
        % {"count": done},
    )


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["tournament", "number", "player", "status", "checked_in_at", "seeded_into"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__display_name"]
    list_select_related = ["tournament", "player", "seeded_into"]
    raw_id_fields = ["substitute_for", "player"]
    actions = [check_in_entries]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin[Stage]):
    list_display = ["tournament", "order", "name", "kind", "advancement_label", "advanced_at"]
    list_filter = ["kind", "tournament"]


@admin.register(StageEntrant)
class StageEntrantAdmin(admin.ModelAdmin[StageEntrant]):
    list_display = ["stage", "entry", "source", "note"]
    list_filter = ["source", "stage__tournament"]
    raw_id_fields = ["entry"]


def _round_step_action(
    step: Callable[[Round, AnyUser], Round], description: StrOrPromise
) -> Callable[[admin.ModelAdmin[Round], HttpRequest, QuerySet[Round]], None]:
    """An admin action taking one round step through its service (refusals as warnings)."""

    @admin.action(description=description)
    def run(
        modeladmin: admin.ModelAdmin[Round], request: HttpRequest, queryset: QuerySet[Round]
    ) -> None:
        for round_ in queryset.select_related("stage__tournament"):
            try:
                step(round_, request.user)
            except services.DomainError as error:
                modeladmin.message_user(
                    request,
                    f"{round_}: {in_active_language(error.message_en, error.message_ja)}",
                    messages.WARNING,
                )

    run.__name__ = step.__name__
    return run


publish_rounds = _round_step_action(
    services.publish_round, _("Publish the selected rounds (commit their seeds)")
)
complete_rounds = _round_step_action(
    services.complete_round, _("Complete the selected rounds (their results become final)")
)
reveal_rounds = _round_step_action(
    services.reveal_round_seed,
    _("Reveal the seeds of the selected rounds (when every game is settled)"),
)
close_rounds = _round_step_action(
    services.close_round, _("Close the selected revealed rounds (no more corrections)")
)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["stage", "number", "status", "public_commitment", "published_at"]
    list_filter = ["status", "stage__tournament"]
    # The secret seed is excluded: only `revealed_seed` is shown, and only once revealed.
    fields = [
        "stage",
        "number",
        "status",
        "draw_method",
        "public_commitment",
        "revealed_seed",
        "published_at",
        "completed_at",
        "revealed_at",
        "closed_at",
    ]
    readonly_fields = [
        "stage",
        "number",
        "status",
        "draw_method",
        "public_commitment",
        "revealed_seed",
        "published_at",
        "completed_at",
        "revealed_at",
        "closed_at",
    ]
    actions = [publish_rounds, complete_rounds, reveal_rounds, close_rounds]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds are drawn by `draw_round`, which creates the seed


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = ["position", "entry"]
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["round", "number", "referee"]
    list_filter = ["round__stage__tournament"]
    list_select_related = ["round__stage__tournament", "referee"]
    readonly_fields = ["explanation"]
    inlines = [SeatInline]
