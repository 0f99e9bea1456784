from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Entry, Tournament


class EntrySerializer(serializers.ModelSerializer[Entry]):
    player = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = Entry
        fields = ["number", "player", "status"]


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entry_count = serializers.IntegerField(read_only=True)
    ruleset = serializers.CharField(source="ruleset_label", read_only=True)

    class Meta:
        model = Tournament
        fields = ["slug", "name", "status", "ruleset", "venue", "starts_on", "entry_count"]
