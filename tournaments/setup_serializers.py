"""API serializers for setting a tournament up (issue #12): stages and their rules, the
advancement preview, playoffs, tournament settings, leagues and seasons."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import League, Season, Stage, Tournament

TOURNAMENT_ORDER_HELP = (
    "How the tournament's order places this stage's entrants (docs/formats.md): stage_first "
    "(default): everyone who plays this stage ranks above everyone who stopped before it, in "
    "this stage's order; with_previous: they are ranked together with those who stopped at the "
    "stage before by the tournament's total points. Not with_previous on the first stage."
)


class StageCreateSerializer(serializers.Serializer[Stage]):
    """A cut or final after the last stage. The rule says who advances INTO it; it is stored
    on the previous stage (the one people advance out of). Left out: the previous stage's
    current rule."""

    tournament = serializers.SlugField()
    name = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
    kind = serializers.CharField(help_text="cut (準決勝) or final (決勝).")
    advance_top_n = serializers.IntegerField(required=False, allow_null=True, default=None)
    advance_top_k_per_table = serializers.IntegerField(
        required=False, allow_null=True, default=None
    )
    carry_over_totals = serializers.BooleanField(required=False, default=False)
    tournament_order = serializers.ChoiceField(
        choices=Stage.TournamentOrder.choices,
        required=False,
        default=Stage.TournamentOrder.STAGE_FIRST,
        help_text=TOURNAMENT_ORDER_HELP,
    )


class StageUpdateSerializer(serializers.Serializer[Stage]):
    """Edit a stage: the rule here is the one OUT of this stage (null clears it)."""

    name = serializers.CharField(max_length=120, required=False)
    kind = serializers.CharField(required=False, help_text="cut or final (before any round).")
    advance_top_n = serializers.IntegerField(required=False, allow_null=True)
    advance_top_k_per_table = serializers.IntegerField(required=False, allow_null=True)
    carry_over_totals = serializers.BooleanField(required=False)
    tournament_order = serializers.ChoiceField(
        choices=Stage.TournamentOrder.choices, required=False, help_text=TOURNAMENT_ORDER_HELP
    )


class NoticeSerializer(serializers.Serializer[None]):
    code = serializers.CharField()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


class StageSetupSerializer(serializers.ModelSerializer[Stage]):
    """A stage with what to mind about its rule (`notices`, e.g. an uneven next stage)."""

    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    kind = serializers.CharField(read_only=True, help_text="qualifying, cut, final or playoff.")
    notices = serializers.SerializerMethodField()

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
            "tournament_order",
            "playoff_for",
            "advanced_at",
            "notices",
        ]

    @extend_schema_field(NoticeSerializer(many=True))
    def get_notices(self, stage: Stage) -> list[dict[str, str]]:
        """What to mind about the rules into and out of this stage."""
        from tournaments.services import previous_stage, stage_rule_notices

        previous = previous_stage(stage)
        notices = stage_rule_notices(previous) if previous is not None else []
        notices += stage_rule_notices(stage)
        return [
            {"code": n.code, "message_en": n.message_en, "message_ja": n.message_ja}
            for n in notices
        ]


class PreviewRowSerializer(serializers.Serializer[None]):
    number = serializers.IntegerField(source="entry.number")
    player = serializers.CharField(source="entry.player.display_name")
    points = serializers.IntegerField()
    place = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["in", "tied", "out", "final"])
    reason = serializers.CharField()
    playoff = serializers.BooleanField(help_text="Placed among level entrants by a playoff.")


class TieSerializer(serializers.Serializer[None]):
    numbers = serializers.ListField(child=serializers.IntegerField())
    entry_ids = serializers.SerializerMethodField()
    places_left = serializers.IntegerField(help_text="0 for a tie in final places.")
    where = serializers.CharField()

    def get_entry_ids(self, tie: Any) -> list[int]:
        return [e.pk for e in tie.entries]


class AdvancementPreviewSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField(source="stage.pk")
    next_stage = serializers.IntegerField(source="target.pk", allow_null=True, default=None)
    final_places = serializers.BooleanField()
    rule = serializers.CharField()
    basis = serializers.CharField()
    rows = PreviewRowSerializer(many=True)
    ties = TieSerializer(many=True)
    notices = NoticeSerializer(many=True)
    playoffs = serializers.SerializerMethodField()

    def get_playoffs(self, preview: Any) -> list[int]:
        return [p.pk for p in preview.playoffs]


class SeedsSerializer(serializers.Serializer[None]):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="Entrant numbers seeded straight into the stage: the whole list ([] clears).",
    )


class PlayoffRequestSerializer(serializers.Serializer[None]):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=1,
        help_text="Entrant numbers of the tied entrants (at least 3).",
    )
    name = serializers.CharField(max_length=120, required=False, default="")


class TournamentSettingsSerializer(serializers.Serializer[Tournament]):
    """A partial update of the tournament's settings; every field optional. The ruleset is
    pinned: sending it is refused (`ruleset_pinned`)."""

    name = serializers.CharField(max_length=200, required=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(), required=False, allow_null=True
    )
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    points_table = serializers.JSONField(required=False)
    games_per_set = serializers.IntegerField(required=False)
    sets_per_round = serializers.IntegerField(required=False)
    title_reset_every = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Titles reset every this many games of a set (UECda 階級リセット: that game "
        "has no titles and no exchange); null: never. From 1; refused once a round is published.",
    )
    seat_change_every = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Players change seats every this many games of a set (UECda 席替え, a "
        "seating drawn from the round's seed); null: never. From 1; refused once a round is "
        "published.",
    )
    table_size = serializers.IntegerField(required=False)
    uneven_tables = serializers.ChoiceField(choices=Tournament.UnevenTables.choices, required=False)
    bye_points = serializers.IntegerField(required=False)
    undo_requires_approval = serializers.BooleanField(required=False)
    rated = serializers.BooleanField(
        required=False,
        help_text="The games count towards the players' ratings across events (individual "
        "events only).",
    )
    forfeit_others = serializers.ChoiceField(
        choices=Tournament.ForfeitOthers.choices, required=False
    )
    forfeit_leaver_points = serializers.IntegerField(required=False, allow_null=True)
    think_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Think time per decision in seconds, 0 to 600; null: the preset's default "
        "(jdf 20, others none); 0: no clock (docs/tournament-day.md).",
    )
    time_fault_rule = serializers.ChoiceField(
        choices=Tournament.TimeFaultRule.choices,
        required=False,
        help_text="What a referee's time fault gives: a warning, a forced pass, or a deduction.",
    )
    time_fault_points = serializers.IntegerField(
        required=False, help_text="Points a time fault deducts under `penalty`, 1 to 100."
    )
    match_length = serializers.ChoiceField(
        choices=Tournament.MatchLength.choices,
        required=False,
        help_text="Team events (掼蛋): until a team wins at A, a fixed number of hands "
        "(games_per_set), or a time limit (match_minutes). Refused once a round is published.",
    )
    match_minutes = serializers.IntegerField(
        required=False, allow_null=True, help_text="A time-limited match's minutes, 1 to 600."
    )
    match_points_by = serializers.ChoiceField(
        choices=Tournament.MatchPointsBy.choices, required=False
    )
    match_points = serializers.JSONField(
        required=False,
        help_text='{"win": 2, "draw": 1, "loss": 0}: whole numbers 0–100, win ≥ draw ≥ loss.',
    )
    ruleset_overrides = serializers.JSONField(
        required=False,
        help_text='The event\'s switch values, {switch: value} (e.g. {"eleven_back": "choice"}), '
        "checked by the ruleset's family; values equal to the preset's are not kept. A bad "
        "switch is refused as `ruleset_overrides.<switch>` (unknown_switch, switch_invalid, "
        "switch_decided_by_table); the whole once a round is published (round_published).",
    )
    ruleset = serializers.CharField(
        required=False, help_text="Pinned: always refused (`ruleset_pinned`)."
    )


class SettingsChangedSerializer(serializers.Serializer[None]):
    changed = serializers.DictField(
        child=serializers.DictField(), help_text="field → {old, new} (as JSON)."
    )
    notices = NoticeSerializer(many=True)
    rescored = serializers.BooleanField()


class SettingsErrorSerializer(serializers.Serializer[None]):
    """Refused settings: nothing changed; `fields` maps each refused field to its error."""

    code = serializers.CharField()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    fields = serializers.DictField(child=NoticeSerializer())  # type: ignore[assignment]


class SeasonSerializer(serializers.ModelSerializer[Season]):
    tournaments = serializers.SerializerMethodField()
    standings_url = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = ["id", "league", "name", "slug", "tournaments", "standings_url"]

    def get_tournaments(self, season: Season) -> list[str]:
        """Slugs of the season's published tournaments."""
        return list(
            season.tournaments.exclude(status=Tournament.Status.DRAFT)
            .order_by("starts_on", "name")
            .values_list("slug", flat=True)
        )

    def get_standings_url(self, season: Season) -> str:
        return reverse("scoring:season", args=[season.pk])


class LeagueSerializer(serializers.ModelSerializer[League]):
    seasons = SeasonSerializer(many=True, read_only=True)

    class Meta:
        model = League
        fields = ["id", "name", "slug", "seasons"]
