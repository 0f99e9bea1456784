from __future__ import annotations

from django.contrib import admin

from tournaments.models import Entry, Player, Tournament


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["name", "status", "ruleset_id", "ruleset_version", "starts_on", "venue"]
    list_filter = ["status", "ruleset_id"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [EntryInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["display_name", "name_kana", "user"]
    search_fields = ["display_name", "name_kana"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["tournament", "number", "player", "status"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__display_name"]
    list_select_related = ["tournament", "player"]
