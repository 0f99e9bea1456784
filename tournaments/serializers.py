from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import services as game_services
from games.models import LATEST_FIRST, Game
from tournaments.models import Bye, Entry, Round, Seat, Stage, Table, Tournament

# The largest entrant number: Entry.number is a PostgreSQL integer, which ends here.
ENTRY_NUMBER_MAX = 2_147_483_647


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
    team = serializers.IntegerField(
        source="team.number",
        read_only=True,
        allow_null=True,
        help_text="The number of the team the entrant plays in (team events); null for none.",
    )
    team_name = serializers.CharField(source="team.name", read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "number",
            "player",
            "name_kana",
            "status",
            "team",
            "team_name",
        ]


class EntryCreateSerializer(serializers.Serializer[Entry]):
    """Add one entrant (a walk-in, 当日参加): `checked_in` checks them in at once."""

    tournament = serializers.SlugField()
    display_name = serializers.CharField(max_length=80)
    name_kana = serializers.CharField(max_length=80, required=False, default="")
    email = serializers.EmailField(required=False, default="")
    number = serializers.IntegerField(
        min_value=1,
        max_value=ENTRY_NUMBER_MAX,
        required=False,
        help_text="Blank: the next free entrant number.",
    )
    checked_in = serializers.BooleanField(required=False, default=False)


class CheckInSerializer(serializers.Serializer[Entry]):
    checked_in = serializers.BooleanField(default=True)


# --- entrants on the day (issue #12): edit, withdraw, reinstate, substitute, CSV ------------


class EntryEditSerializer(serializers.Serializer[Entry]):
    """Correct an entrant: fields left out keep their value."""

    display_name = serializers.CharField(max_length=80, required=False)
    name_kana = serializers.CharField(max_length=80, required=False, allow_blank=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    number = serializers.IntegerField(min_value=1, max_value=ENTRY_NUMBER_MAX, required=False)


class EntryDaySerializer(serializers.ModelSerializer[Entry]):
    """An entrant with what the day says about them: substitutions and a late arrival."""

    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    player = serializers.CharField(source="player.display_name", read_only=True)
    name_kana = serializers.CharField(source="player.name_kana", read_only=True)
    substitute_for = serializers.IntegerField(
        source="substitute_for.number", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Entry
        fields = ["id", "tournament", "number", "player", "name_kana", "status", "substitute_for"]


class ReasonSerializer(serializers.Serializer[Entry]):
    reason = serializers.CharField(max_length=300)


class OptionalReasonSerializer(serializers.Serializer[Entry]):
    reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class SubstituteRequestSerializer(serializers.Serializer[Entry]):
    """Who takes the entrant's place (and seat, in a round being played): an existing
    entrant by number, or a new person by name — one of the two."""

    substitute_number = serializers.IntegerField(
        min_value=1, max_value=ENTRY_NUMBER_MAX, required=False
    )
    display_name = serializers.CharField(max_length=80, required=False, default="")
    name_kana = serializers.CharField(max_length=80, required=False, default="")
    email = serializers.EmailField(required=False, default="")
    reason = serializers.CharField(max_length=300)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("substitute_number" in attrs) == bool(str(attrs.get("display_name", "")).strip()):
            raise serializers.ValidationError(
                "Give either substitute_number (an entrant) or display_name (a new person)."
            )
        return attrs


class CsvUploadSerializer(serializers.Serializer[Entry]):
    """A CSV file of entrants: a `file` upload (UTF-8 or Shift_JIS bytes) or its `text`."""

    tournament = serializers.SlugField()
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("file" in attrs) == ("text" in attrs):
            raise serializers.ValidationError("Send either file or text.")
        return attrs


class CsvRowSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    number = serializers.IntegerField()
    number_given = serializers.BooleanField()
    display_name = serializers.CharField()
    name_kana = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The returning player the row's e-mail matches."
    )
    team = serializers.CharField(help_text="The team the row names (team events); empty: none.")


class CsvTeamSerializer(serializers.Serializer[Any]):
    """A team the import forms (team events): the rows naming it."""

    name = serializers.CharField()
    number = serializers.IntegerField()
    lines = serializers.ListField(child=serializers.IntegerField())
    members = serializers.ListField(child=serializers.CharField())


class CsvPreviewSerializer(serializers.Serializer[None]):
    """What importing would create; send `token` to csv-import to import exactly this."""

    encoding = serializers.CharField()
    rows = CsvRowSerializer(many=True)
    teams = CsvTeamSerializer(many=True)
    token = serializers.CharField()


class CsvImportRequestSerializer(serializers.Serializer[None]):
    tournament = serializers.SlugField()
    token = serializers.CharField(help_text="The `token` of a csv-preview answer.")


class CsvRowErrorSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField(help_text="Line number; the header is 1, the file 0.")
    column = serializers.CharField()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


class CsvErrorSerializer(serializers.Serializer[None]):
    code = serializers.CharField()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    encoding = serializers.CharField()
    errors = CsvRowErrorSerializer(many=True)  # type: ignore[assignment]


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entry_count = serializers.IntegerField(read_only=True)
    ruleset = serializers.CharField(source="ruleset_label", read_only=True)
    team_size = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="Players per team (掼蛋 Guandan: 2, a team event); null where everyone "
        "plays alone.",
    )

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "status",
            "ruleset",
            "ruleset_overrides",
            "venue",
            "starts_on",
            "entry_count",
            "games_per_set",
            "sets_per_round",
            "title_reset_every",
            "seat_change_every",
            "table_size",
            "uneven_tables",
            "bye_points",
            "points_table",
            "team_size",
            "match_length",
            "match_minutes",
            "match_points_by",
            "match_points",
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
            "tournament_order",
            "playoff_for",
            "advanced_at",
        ]


class ByeSerializer(serializers.ModelSerializer[Bye]):
    """An entrant who sits out the round (不戦) and the points the bye scores."""

    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    player = serializers.CharField(source="entry.player.display_name", read_only=True)

    class Meta:
        model = Bye
        fields = ["entry_number", "player", "points"]


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A round. `seed_commitment` appears once published, `seed` only once revealed: the
    secret is never serialised from the model field itself. `byes`: who sits out (不戦)."""

    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        source="stage.tournament", slug_field="slug", read_only=True
    )
    seed_commitment = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    byes = ByeSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "stage",
            "number",
            "status",
            "draw_method",
            "duplicate_deals",
            "published_at",
            "completed_at",
            "revealed_at",
            "closed_at",
            "seed_commitment",
            "seed",
            "byes",
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


class TableCurrentGameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    attempt = serializers.IntegerField(help_text="2, 3… for a voided game dealt again.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    next_seq = serializers.IntegerField(help_text="The seq to send with the next move.")
    undo_pending_seq = serializers.IntegerField(
        allow_null=True, help_text="An undo waiting for the head referee (no moves meanwhile)."
    )


class TableNextGameSerializer(serializers.Serializer[Any]):
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    attempt = serializers.IntegerField()


class TableBlockerSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="game_in_play, round_complete, round_not_open…")
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


class TableSerializer(serializers.ModelSerializer[Table]):
    """A table, its seats (who sits there now, substitutes included), its current game and
    what starting a game there would start — the same answers as `/api/tables/<id>/games/`
    (`games.api_table.TableGamesView`), which lists every game with its result. That view's
    summaries are not reused here: `games.api_table` imports scoring, which tournaments never
    does (docs/design.md §2); the next game comes from the same `games.services` function."""

    seats = SeatSerializer(many=True, read_only=True)
    referee = serializers.CharField(source="referee.username", read_only=True, allow_null=True)
    current_game = serializers.SerializerMethodField(
        help_text="The table's latest game (in play or the last one played); null before any."
    )
    next_game = serializers.SerializerMethodField(
        help_text="What starting a game now starts; null when none can start (see next_blocker)."
    )
    next_blocker = serializers.SerializerMethodField(
        help_text="Why no game can start now; null when one can."
    )
    games_url = serializers.SerializerMethodField(
        help_text="Every game of the table with its result: /api/tables/<id>/games/."
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "round",
            "number",
            "referee",
            "explanation",
            "seats",
            "current_game",
            "next_game",
            "next_blocker",
            "games_url",
        ]

    def _play(self, table: Table) -> dict[str, Any]:
        cache: dict[int, dict[str, Any]] = self.context.setdefault("table_play", {})
        if table.pk not in cache:
            cache[table.pk] = table_play(table)
        return cache[table.pk]

    @extend_schema_field(TableCurrentGameSerializer(allow_null=True))
    def get_current_game(self, table: Table) -> dict[str, Any] | None:
        current: dict[str, Any] | None = self._play(table)["current_game"]
        return current

    @extend_schema_field(TableNextGameSerializer(allow_null=True))
    def get_next_game(self, table: Table) -> dict[str, int] | None:
        nxt: dict[str, int] | None = self._play(table)["next_game"]
        return nxt

    @extend_schema_field(TableBlockerSerializer(allow_null=True))
    def get_next_blocker(self, table: Table) -> dict[str, str] | None:
        blocker: dict[str, str] | None = self._play(table)["next_blocker"]
        return blocker

    @extend_schema_field(serializers.CharField())
    def get_games_url(self, table: Table) -> str:
        return f"/api/tables/{table.pk}/games/"


def table_play(table: Table) -> dict[str, Any]:
    """A table's current game (never a hand), the next game a start would start, or why none
    can start — as `games.api_table.TableGamesView` answers them."""
    latest = table.games.order_by(*LATEST_FIRST).first()
    current = None
    if latest is not None:
        current = {
            "id": latest.pk,
            "set_number": latest.set_number,
            "game_number": latest.game_number,
            "attempt": latest.attempt,
            "status": latest.status,
            "next_seq": latest.last_seq + 1,
            "undo_pending_seq": latest.undo_pending_seq,
        }
    next_game, blocker = game_services.next_game_fields(table)
    return {"current_game": current, "next_game": next_game, "next_blocker": blocker}


class DrawRequestSerializer(serializers.Serializer[Round]):
    """Draw the next round of a stage. While an earlier round is not complete the draw is
    refused, unless `override_reason` says why it must happen anyway (audited)."""

    override_reason = serializers.CharField(required=False, allow_blank=True, max_length=300)
    duplicate_deals = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A duplicate round (docs/duplicate.md): each group of tables plays the same "
        "deals with the seats rotated. 大富豪 only, never a playoff; fixed once published.",
    )


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
    """The API's error shape (config.api_errors), with a refusal's own keys beside it."""

    code = serializers.CharField()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    detail = serializers.JSONField(
        allow_null=True, help_text="Field errors or data to act on, or null."
    )
    field = serializers.CharField(required=False, help_text="The form field it concerns.")
    blockers = BlockerSerializer(many=True, required=False)
