"""Records of what was played: for anyone, each game that ended as a `kakumei-record/1`
record and a round's or tournament's games as JSON lines (docs/records-for-tools.md); for the
table's officials, a team match (掼蛋 Guandan) as one match record
(`games.records.match_record`); and, the other way, games played elsewhere imported from their
records by an organiser (`games.imports`).

Unlike the table API (`games.api_table`), a record holds the deals — but only of hands that
have ended, which tell nothing of a hand in play (each hand's deal is derived from the round's
seed on its own), and only the table's officials (or its device) may read it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import imports
from games.api import error_response, is_table_device
from games.api_table import (
    TableAPIView,
    TableErrorSerializer,
    _call,
    _errors,
    _forbidden,
    writable_table,
)
from games.models import Game
from games.records import match_record, published_record, records_jsonl
from games.selectors import ended_games, public_games
from tournaments.selectors import public_tournaments, visible_rounds


class TableMatchRecordView(TableAPIView):
    @extend_schema(
        operation_id="tables_match_record",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="A kakumei-record/1 match record (docs/record-format.md §8).",
            ),
            **_errors(
                conflict="no_hands_ended (no hand of the match has ended), match_not_replayable "
                "(a hand entered as a result only, or corrected: not replayable from its cards)."
            ),
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The table's team match as one match record: every ended hand's deal, first leader
        and moves, in playing order, each hand's `match` as the service started it. `python -m
        games.engine replay` replays it and derives the same levels (officials only)."""
        table = writable_table(request, table_id)
        if isinstance(table, Response):
            return table
        return _call(lambda: Response(match_record(table)))


# --- every game's record, for anyone (docs/records-for-tools.md) -----------------------------

JSONL = "application/x-ndjson"


def record_filename(game: Game) -> str:
    """`kakumei-<tournament>-r<round>-t<table>-s<set>-g<game>[-a<attempt>].json`."""
    round_ = game.table.round
    name = (
        f"kakumei-{round_.stage.tournament.slug}-r{round_.number}-t{game.table.number}"
        f"-s{game.set_number}-g{game.game_number}"
    )
    return f"{name}-a{game.attempt}.json" if game.attempt > 1 else f"{name}.json"


def jsonl_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """A JSON-lines download, one record line per game, written as it is read."""
    response = StreamingHttpResponse(lines, content_type=f"{JSONL}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class GameRecordView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_record",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="A kakumei-record/1 record that `python -m games.engine replay` "
                "replays: every hand once the round's seed is revealed, the public record "
                "(hands null with counts, private cards counted) before "
                "(docs/records-for-tools.md).",
            ),
            404: OpenApiResponse(description="No such game, or not public."),
            409: OpenApiResponse(
                TableErrorSerializer,
                description="game_in_play (no record until it ends), game_void, "
                "game_not_replayable (a quick result, a correction or a forfeit: the result "
                "does not follow from moves).",
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """A game's record (棋譜), for anyone who may see the game's round."""
        game = get_object_or_404(public_games(), pk=game_id)
        return _call(lambda: Response(published_record(game)))


_JSONL_ANSWER = {
    (200, JSONL): OpenApiResponse(
        OpenApiTypes.STR,
        description='JSON lines, one per game that ended: {"game": {id, tournament, stage, '
        "round, round_id, table, set, game, attempt, status, mode, players, results, hands, "
        'replays}, "record": {kakumei-record/1} | null, "error"?: {code, message_en, '
        "message_ja}} (docs/records-for-tools.md).",
    ),
    404: OpenApiResponse(description="No such round or tournament, or not public."),
}


class RoundRecordsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="rounds_records", responses=_JSONL_ANSWER)
    def get(self, request: Request, round_id: int) -> StreamingHttpResponse:
        """Every game of the round that has ended, as JSON lines in table, set and game order."""
        round_ = get_object_or_404(visible_rounds(AnonymousUser()), pk=round_id)
        slug = round_.stage.tournament.slug
        return jsonl_response(
            records_jsonl(ended_games(round_)), f"kakumei-{slug}-r{round_.number}.jsonl"
        )


class TournamentRecordsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="tournaments_records", responses=_JSONL_ANSWER)
    def get(self, request: Request, slug: str) -> StreamingHttpResponse:
        """Every game of the tournament that has ended, as JSON lines in stage, round, table,
        set and game order."""
        tournament = get_object_or_404(public_tournaments(), slug=slug)
        return jsonl_response(records_jsonl(ended_games(tournament)), f"kakumei-{slug}.jsonl")


# --- importing records played elsewhere (games.imports) -----------------------------------------


class ImportOutcomeSerializer(serializers.Serializer[Any]):
    record = serializers.IntegerField(help_text="The record's place in the batch, from 1.")
    status = serializers.ChoiceField(
        choices=["imported", "duplicate", "refused"],
        help_text="imported: a new game; duplicate: imported before as `game`, nothing "
        "written; refused: `code` and the messages say why, nothing written.",
    )
    game = serializers.IntegerField(
        required=False,
        help_text="imported, duplicate: the game (a 掼蛋 match record's: its first hand).",
    )
    games = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="imported from a 掼蛋 match record: every hand's game, in order.",
    )
    table = serializers.IntegerField(required=False, help_text="The game's table number.")
    set_number = serializers.IntegerField(required=False)
    game_number = serializers.IntegerField(required=False)
    code = serializers.CharField(
        required=False,
        help_text="refused: the engine's code of the refused give or move (not_your_turn, "
        "not_stronger, exchange_invalid…), or record_unfinished, ruleset_mismatch, "
        "seats_mismatch, titles_mismatch, match_mismatch, deal_incomplete, pile_incomplete, "
        "deal_partly_known, hand_imported_before, teams_not_facing, family_unsupported, "
        "invalid_record, unknown_card, invalid_rules, not_json, game_in_play, round_complete, "
        "match_over.",
    )
    message_en = serializers.CharField(required=False)
    message_ja = serializers.CharField(required=False)
    section = serializers.ChoiceField(
        choices=["exchange", "moves"],
        required=False,
        allow_null=True,
        help_text="refused by the engine: the record's list holding the refused action.",
    )
    move_number = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="refused by the engine: the refused give or move's number in `section`, "
        "from 1 (moves[4] is move 5).",
    )
    rule = serializers.CharField(required=False, allow_null=True)
    key = serializers.CharField(
        required=False, allow_null=True, help_text="The record key at fault, when one is."
    )
    hand = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="refused, a 掼蛋 match record: the hand at fault, from 1 (games[1] is hand 2).",
    )


class ImportAnswerSerializer(serializers.Serializer[Any]):
    imported = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    refused = serializers.IntegerField()
    records = ImportOutcomeSerializer(many=True)


class RecordsRefusedSerializer(TableErrorSerializer):
    records = ImportOutcomeSerializer(many=True)


class TableRecordsView(TableAPIView):
    @extend_schema(
        operation_id="tables_records_import",
        request=OpenApiTypes.OBJECT,
        responses={
            201: OpenApiResponse(
                ImportAnswerSerializer,
                description="At least one record was imported; `records` has every record's "
                "outcome, the refused ones included.",
            ),
            200: OpenApiResponse(
                ImportAnswerSerializer,
                description="Every record was imported before (duplicates): nothing written.",
            ),
            **_errors(
                conflict="round_draft, round_settled (the round is not open), "
                "family_unsupported (the tournament's game has no importable records).",
                unprocessable="records_refused: nothing was imported and at least one record "
                "was refused (`records` says why, per record); no_records, too_many_records.",
            ),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Import games played elsewhere as this table's next games (organisers only): the
        body is one kakumei-record/1 record, a list of them, or `{"records": [...]}`; an item
        may wrap its record as a downloaded line does (`{"game": …, "record": {…}}`). Each
        record is judged by the engine and imported with its moves and results, or refused
        with the engine's code and the give or move number — on its own: the others are still
        imported. The same record sent again is a duplicate and writes nothing
        (docs/record-format.md, "Importing records")."""
        table = writable_table(request, table_id)
        if isinstance(table, Response):
            return table
        if is_table_device(request):
            return _forbidden("A table's scorer device records play; an organiser imports.")
        records = imports.records_in(request.data)
        return _call(lambda: _import_answer(imports.import_records(table, request.user, records)))


def _import_answer(outcomes: list[imports.ImportOutcome]) -> Response:
    counts = Counter(o.status for o in outcomes)
    body = {
        "imported": counts["imported"],
        "duplicates": counts["duplicate"],
        "refused": counts["refused"],
        "records": [o.to_dict() for o in outcomes],
    }
    if counts["imported"]:
        return Response(body, status=status.HTTP_201_CREATED)
    if counts["refused"]:
        return error_response(
            "records_refused",
            f"Nothing was imported: {counts['refused']} record(s) refused (see records).",
            f"取り込んだ棋譜はありません。{counts['refused']}件が受け付けられませんでした"
            "(records を参照)。",
            status.HTTP_422_UNPROCESSABLE_ENTITY,
            **body,
        )
    return Response(body, status=status.HTTP_200_OK)
