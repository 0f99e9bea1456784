from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Entry, Round, Seat, Stage, Table, Tournament


class EntrySerializer(serializers.ModelSerializer[Entry]):
    player = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = Entry
        fields = ["number", "player", "status"]


class EntryDetailSerializer(serializers.ModelSerializer[Entry]):
    """An entry in the entries endpoint (organisers create them through the same service)."""

    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    player = serializers.CharField(source="player.display_name", read_only=True)
    name_kana = serializers.CharField(source="player.name_kana", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "tournament", "number", "player", "name_kana", "status"]


class EntryCreateSerializer(serializers.Serializer[Entry]):
    tournament = serializers.SlugField()
    display_name = serializers.CharField(max_length=80)
    name_kana = serializers.CharField(max_length=80, required=False, default="")
    number = serializers.IntegerField(min_value=1, required=False)


class CheckInSerializer(serializers.Serializer[Entry]):
    checked_in = serializers.BooleanField(default=True)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entry_count = serializers.IntegerField(read_only=True)
    ruleset = serializers.CharField(source="ruleset_label", read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "status",
            "ruleset",
            "venue",
            "starts_on",
            "entry_count",
            "games_per_set",
            "sets_per_round",
            "table_size",
            "allow_short_tables",
            "points_table",
        ]


class StageSerializer(serializers.ModelSerializer[Stage]):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "tournament",
            "order",
            "name",
            "kind",
            "advance_top_n",
            "advance_top_k_per_table",
            "carry_over_totals",
            "advanced_at",
        ]


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A round. `seed_commitment` appears once published, `seed` only once revealed: the
    secret is never serialised from the model field itself."""

    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        source="stage.tournament", slug_field="slug", read_only=True
    )
    seed_commitment = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "stage",
            "number",
            "status",
            "draw_method",
            "published_at",
            "completed_at",
            "revealed_at",
            "closed_at",
            "seed_commitment",
            "seed",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed_commitment(self, round_: Round) -> str | None:
        return round_.public_commitment

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed(self, round_: Round) -> str | None:
        return round_.revealed_seed


class SeatSerializer(serializers.ModelSerializer[Seat]):
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    player = serializers.CharField(source="entry.player.display_name", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "entry_number", "player"]


class TableSerializer(serializers.ModelSerializer[Table]):
    seats = SeatSerializer(many=True, read_only=True)
    referee = serializers.CharField(source="referee.username", read_only=True, allow_null=True)

    class Meta:
        model = Table
        fields = ["id", "round", "number", "referee", "explanation", "seats"]


class DrawRequestSerializer(serializers.Serializer[Round]):
    """Draw the next round of a stage. While an earlier round is not complete the draw is
    refused, unless `override_reason` says why it must happen anyway (audited)."""

    override_reason = serializers.CharField(required=False, allow_blank=True, max_length=300)


class AdvanceRequestSerializer(serializers.Serializer[Stage]):
    tie_break = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        help_text="Entrant numbers of tied entrants in their resolved order (playoff or lot).",
    )


class BlockerSerializer(serializers.Serializer[None]):
    table = serializers.IntegerField()
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    code = serializers.CharField()
    game_id = serializers.IntegerField(allow_null=True)
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


class ErrorSerializer(serializers.Serializer[None]):
    detail = serializers.CharField()
    code = serializers.CharField(required=False)
    message_en = serializers.CharField(required=False)
    message_ja = serializers.CharField(required=False)
    blockers = BlockerSerializer(many=True, required=False)
