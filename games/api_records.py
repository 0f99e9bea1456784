"""Records of what was played: for anyone, each game that ended as a `kakumei-record/1`
record and a round's or tournament's games as JSON lines (docs/records-for-tools.md); for the
table's officials, a team match (掼蛋 Guandan) as one match record
(`games.records.match_record`).

Unlike the table API (`games.api_table`), a record holds the deals — but only of hands that
have ended, which tell nothing of a hand in play (each hand's deal is derived from the round's
seed on its own), and only the table's officials (or its device) may read it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_table import (
    TableAPIView,
    TableErrorSerializer,
    _call,
    _errors,
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
                "does not follow from moves), table_not_recordable (a table of 3 or 5 under a "
                "preset for 4: the record format cannot name its rules).",
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
