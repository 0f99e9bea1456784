"""Streaming API for devices and bots: submit moves (one, or a batch as JSON lines), read moves
since a seq, a table's public live view and its event feed.

Reads are scoped to tables the user may see (`tournaments.selectors.visible_tables`); writes go
through `games.services.submit_move`, which checks that the user may run the table (its
referee, the head referee, an organiser) — a referee writes only to tables assigned to them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import broadcast
from config.api_errors import api_error, bad_request
from config.api_input import NDJSON, JSONParser, NDJSONParser, SessionAuthentication
from games import refusals, services
from games.auth import DeviceTokenAuthentication, require_scope, scope_allows
from games.live import current_table_version, may_watch, table_is_public, table_scope
from games.models import DeviceToken, Game, ResultVersion
from games.public import duplicate_embargo, live_table, public_log
from games.results import version_placing
from games.serializers import (
    DETAIL_HELP,
    FLAT_HELP,
    TEAM_HELP,
    BatchResultSerializer,
    LiveTableSerializer,
    MoveAcceptedSerializer,
    MoveErrorSerializer,
    MoveListSerializer,
    MoveSubmitSerializer,
)
from tournaments.selectors import visible_tables

__all__ = ["NDJSON", "NDJSONParser"]


class ReadOrAuthenticatedWrite(permissions.BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user.is_authenticated)


def visible_game(request: Request, game_id: int) -> Game:
    """The game, if the user may see its table (404 otherwise, as for a missing game)."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    user = request.user
    # The assigned referee (every device write) needs no visibility query; others do, but
    # for this one table only — the scoped queryset as a whole is costly on a busy database.
    if user.is_authenticated and game.table.referee_id == user.pk:
        return game
    if not visible_tables(user).filter(pk=game.table_id).exists():
        raise Http404("No such game.")
    return game


def _refuse_other_writers(request: Request, game_id: int) -> Response | None:
    """Who may not write the game is answered before its body is read (a batch may be a
    megabyte): 404 if they may not even see it, else 403 — the refusal recorded, as the
    service records one (what was sent is not read, so not kept). The service checks the
    writer again on the locked row."""
    if services.may_write_game(request.user, game_id):
        return None  # one query, for the table's referee and an official alike
    game = get_object_or_404(Game.objects.select_related("table__round__stage"), pk=game_id)
    refused = services.not_your_table()
    refusals.record_refusal(
        tournament_id=game.table.round.stage.tournament_id,
        round_id=game.table.round_id,
        table_id=game.table_id,
        game_id=game.pk,
        actor=request.user,
        action="move",
        code="forbidden",
        message_en=str(refused),
        message_ja="権限がありません",
        http_status=403,
    )
    visible_game(request, game_id)
    return _forbidden(refused)


def _move_error(outcome: services.MoveOutcome) -> dict[str, Any]:
    """A refused move in the API's error shape (its `rule`, `expected_seq` beside the four)."""
    return {**outcome.error_body(), "detail": None}


def _line_result(line: int, outcome: services.MoveOutcome) -> dict[str, Any]:
    out: dict[str, Any] = {
        "line": line,
        "http_status": outcome.http_status,
        "status": outcome.status,
        "seq": outcome.seq,
    }
    if outcome.ok:
        out["events"] = outcome.events
    else:
        out["error"] = _move_error(outcome)
    return out


def outcome_response(outcome: services.MoveOutcome) -> Response:
    if outcome.ok:
        body = {
            "status": outcome.status,
            "seq": outcome.seq,
            "next_seq": outcome.expected_seq,
            "events": outcome.events,
            "game_over": outcome.game_over,
        }
        return Response(body, status=outcome.http_status)
    return Response(_move_error(outcome), status=outcome.http_status)


class GameMovesView(APIView):
    # Device tokens first: an unauthenticated device gets 401 with `WWW-Authenticate: Token`.
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [ReadOrAuthenticatedWrite]
    parser_classes = [JSONParser, NDJSONParser]

    @extend_schema(
        operation_id="games_moves_list",
        parameters=[OpenApiParameter("since", int, description="Only moves with a higher seq.")],
        responses=MoveListSerializer,
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game's log after `since`: public fields only (hands are never here; the cards of
        an exchange give show as a count until the game ends)."""
        game = visible_game(request, game_id)
        try:
            since = int(request.query_params.get("since", 0))
        except ValueError:
            raise ParseError("since must be an integer") from None
        rows = list(game.moves.order_by("seq"))
        if duplicate_embargo(game) and not services.may_write_game(request.user, game.pk):
            # A duplicate deal's plays would show its group's other tables their cards: only
            # the table's own officials and devices read them before the reveal.
            rows = []
        # The whole log is read: whether a move stands depends on the undos after it.
        moves = public_log(game, rows, game.is_over)
        return Response(
            {
                "game": game.pk,
                "status": game.status,
                "last_seq": game.last_seq,
                "moves": [m for m in moves if m["seq"] > since],
            }
        )

    @extend_schema(
        operation_id="games_moves_create",
        request={"application/json": MoveSubmitSerializer, NDJSON: MoveSubmitSerializer},
        responses={
            200: OpenApiResponse(
                MoveAcceptedSerializer,
                description="A replay of an identical earlier submission, or (JSON lines) the "
                "per-line results as BatchResult.",
            ),
            201: MoveAcceptedSerializer,
            207: BatchResultSerializer,
            400: MoveErrorSerializer,
            403: MoveErrorSerializer,
            409: MoveErrorSerializer,
            422: MoveErrorSerializer,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Submit one move `{seq, move}`, or a batch as JSON lines (`application/x-ndjson`):
        lines are applied in order and the batch stops at the first line not accepted; the
        answer (207) lists each processed line's result."""
        # Who may write is settled before the body is read; the service locks the game row and
        # checks the writer again.
        try:
            require_scope(request.auth, game_id=game_id)
            refused = _refuse_other_writers(request, game_id)
            if refused is not None:
                return refused
            data: object = request.data
            if isinstance(data, list):
                return self._batch(request, game_id, data)
            serializer = MoveSubmitSerializer(data=request.data)
            if not serializer.is_valid():
                visible_game(request, game_id)  # a malformed body for an unseen game is a 404
                return bad_request(serializer.errors)
            outcome = services.submit_move(
                game_id, serializer.validated_data["move"], serializer.validated_data["seq"],
                request.user,
            )  # fmt: skip
        except Game.DoesNotExist:
            raise Http404("No such game.") from None
        except PermissionDenied as error:
            visible_game(request, game_id)
            return _forbidden(error)
        return outcome_response(outcome)

    def _batch(self, request: Request, game: int, lines: list[Any]) -> Response:
        results: list[dict[str, Any]] = []
        ok = True
        for number, line in enumerate(lines, start=1):
            serializer = MoveSubmitSerializer(data=line)
            if not serializer.is_valid():
                results.append(
                    {
                        "line": number,
                        "http_status": 400,
                        "status": "invalid",
                        "seq": None,
                        "error": bad_request(serializer.errors).data,
                    }
                )
                ok = False
                break
            data = serializer.validated_data
            outcome = services.submit_move(game, data["move"], data["seq"], request.user)
            results.append(_line_result(number, outcome))
            if not outcome.ok:
                ok = False
                break
        return Response({"ok": ok, "results": results}, status=207)


def _forbidden(error: PermissionDenied) -> Response:
    return api_error(
        "permission_denied",
        str(error),
        "このテーブルに記録する権限がありません",
        status.HTTP_403_FORBIDDEN,
    )


class TableLiveView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tables_live_retrieve",
        responses={
            200: LiveTableSerializer,
            304: OpenApiResponse(description="Unchanged since the version in If-None-Match."),
            404: OpenApiResponse(description="No such table, or not yours to see."),
        },
    )
    def get(self, request: Request, table_id: int) -> HttpResponseBase:
        """The table's public state: seats, the current game's trick, counts, recent events and
        results (`engine.observe(state, None)`; hands hidden until the game ends).

        The `ETag` is the table's version (as the event feed sends it): a client asking again
        with `If-None-Match` gets `304 Not Modified` while the table is unchanged, answered
        from the cache without a database query."""
        public = table_is_public(table_id)
        if not public and not may_watch(request.user, table_id):
            raise Http404("No such table.")
        version = current_table_version(table_id)
        etag = f'"{version}"'
        response: HttpResponseBase = get_conditional_response(request, etag=etag) or Response(
            live_table(table_id)
        )
        response["ETag"] = etag
        # A table the public may not see yet (a referee's own, in a draft round) is nobody
        # else's to keep.
        response["Cache-Control"] = "public, max-age=1" if public else "private, no-cache"
        patch_vary_headers(response, ("Cookie", "Authorization"))
        return response


# --- the event feed --------------------------------------------------------------------------


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _visible_table_version(request: HttpRequest, table_id: int) -> str:
    """The table's current version if `request` may see the table (else 404). Run once when a
    stream opens; the database connection it used, if any, is closed before the stream starts,
    so an open stream holds none."""
    try:
        if not may_watch(request.user, table_id):
            raise Http404("No such table.")
        return current_table_version(table_id)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction is left open)
            connection.close()


async def table_events(request: HttpRequest, table_id: int) -> StreamingHttpResponse:
    """Server-sent events for a table: `event: table` with the table's version whenever it
    changes ("ping, then refetch" the live view; no game data travels in the stream), a
    comment as heartbeat, and after `LIVE_FEED_SECONDS` an `event: bye`; clients (EventSource,
    htmx's sse extension) reconnect with `?v=<last version>`. When an undo takes a move back,
    the streams open then get `event: withdrawn` (`{"table", "game", "seq", "version"}`) just
    before that version's `event: table`: drop move `seq` from what you show. A stream opened
    later is never told of it: the view it fetches has no trace of the move.

    Served in production by the async live process (docs/live.md): a viewer holds neither a
    worker thread nor a database connection, only a queue fed by the process's one Redis
    subscription. Under WSGI (the embedded default) a stream holds a thread: keep
    `LIVE_FEED_SECONDS` short there.
    """
    current = await sync_to_async(_visible_table_version)(request, table_id)
    seconds = float(settings.LIVE_FEED_SECONDS)
    last_seen = request.GET.get("v")
    scope = table_scope(table_id)

    async def stream() -> AsyncIterator[str]:
        yield "retry: 2000\n\n"
        seen = last_seen
        if current != seen:
            seen = current
            yield _sse("table", {"table": table_id, "version": current})
        async for news in broadcast.versions(scope, seen, seconds):
            if news is None:
                yield ": still here\n\n"
                continue
            seen = news.version
            withdrawn = (news.note or {}).get("withdrawn")
            if withdrawn:
                # An undo took a move back: drop it from what you show (its row number only;
                # the view the next event names no longer has it).
                yield _sse("withdrawn", {"table": table_id, **withdrawn, "version": seen})
            yield _sse("table", {"table": table_id, "version": seen})
        yield _sse("bye", {"reconnect": True, "version": seen})

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    return response


# --- result versions and corrections (issue #11) ---------------------------------------------


class RulingErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="Stable code, e.g. reason_required, result_changed, round_closed."
    )
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


class PlacingRowSerializer(serializers.Serializer[Any]):
    """One seat's place in a game's result, as every result the API shows has it."""

    seat = serializers.IntegerField(
        help_text="0-based engine seat: the game's `seating` says which table position plays it."
    )
    place = serializers.IntegerField()
    team = serializers.IntegerField(allow_null=True, help_text=TEAM_HELP)
    detail = serializers.JSONField(help_text=DETAIL_HELP)
    title = serializers.CharField(allow_blank=True, required=False, help_text=FLAT_HELP)
    foul = serializers.BooleanField(required=False, help_text=FLAT_HELP)
    miyako_ochi = serializers.BooleanField(required=False, help_text=FLAT_HELP)
    forfeit = serializers.BooleanField()
    points = serializers.IntegerField()


class VersionPlacingSerializer(PlacingRowSerializer):
    entry = serializers.IntegerField(help_text="The entry's id.")


class ResultVersionSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ResultVersion.Kind.choices)
    placings = VersionPlacingSerializer(many=True, help_text="First place first; [] when none.")
    reason = serializers.CharField(allow_blank=True)
    actor = serializers.CharField(allow_null=True, help_text="The official's username.")
    after_reveal = serializers.BooleanField(
        help_text="Made by an organiser after the round's seed was revealed (shown publicly)."
    )
    created_at = serializers.DateTimeField()


class ResultVersionListSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    result_version = serializers.IntegerField(
        help_text="The current version's number (0: no result yet); send it as "
        "based_on_version with a correction."
    )
    corrected_after_reveal = serializers.BooleanField()
    versions = ResultVersionSerializer(many=True)


class PlacingInputSerializer(serializers.Serializer[Any]):
    # Seats are any integers here: the one parser of finishing orders (games.offline) refuses
    # a seat not at the table (quick_seat_not_at_table), as every other entry point does.
    finishing_order = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="0-based seats of the clean finishers in order, ending with the player left "
        "holding cards.",
    )
    fouls = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        default=list,
        help_text="Seats that finished on a foul (反則あがり), in the order they fouled.",
    )
    miyako_ochi = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The previous 大富豪's seat when they fell (都落ち).",
    )


# `aces_only` and a Guandan finishing order, as a quick result and a correction both take them.
GUANDAN_PLACING_HELP = (
    "Guandan under rules with aces_finish_demotes (guandan-pagat): the first "
    "finisher went out with a final play of aces only (aces_only_not_in_rules elsewhere). "
    "A Guandan finishing_order names the seats as far as they decide the hand: "
    "[a, partner of a] (1-2), three seats (1-3 or 1-4) or all four; no fouls, no "
    "miyako_ochi"
)


class CorrectionInputSerializer(PlacingInputSerializer):
    """A correction's result: 大富豪's placing input, or a 掼蛋 (Guandan) hand's finishing
    order as far as it decides the hand, with `aces_only`."""

    aces_only = serializers.BooleanField(
        required=False,
        default=False,
        help_text=f"{GUANDAN_PLACING_HELP} (quick_not_in_family). Only a match's last hand is "
        "corrected (later_hands_follow).",
    )


class CorrectionSerializer(CorrectionInputSerializer):
    reason = serializers.CharField(max_length=300, allow_blank=True)
    based_on_version = serializers.IntegerField(
        min_value=0, help_text="The result_version you reviewed: refused (409) if it changed."
    )
    confirm_cut_change = serializers.BooleanField(
        default=False,
        help_text="You have seen in the preview (POST …/corrections/preview/, "
        "standings.needs_cut_confirmation) that the correction changes who is above a stage's "
        "cut, and confirm it: without it such a correction is refused (409 "
        "cut_change_unconfirmed). Recorded in the audit with the reason.",
    )


def _version_dict(version: ResultVersion) -> dict[str, Any]:
    return {
        "number": version.number,
        "kind": version.kind,
        "placings": [version_placing(p) for p in version.placings],
        "reason": version.reason,
        "actor": version.actor.get_username() if version.actor is not None else None,
        "after_reveal": version.after_reveal,
        "created_at": version.created_at,
    }


def error_response(code: str, en: str, ja: str, http: int, **extra: Any) -> Response:
    """The API's refusal: a stable code and the message in English and Japanese (plus any
    `extra` the caller can act on, e.g. the expected seq; `detail=` fills the shape's detail).
    `config.api_errors.api_error` under its older name."""
    return api_error(code, en, ja, http, **extra)


def scope_allows_request(request: Request, game: Game) -> bool:
    token = request.auth
    return not isinstance(token, DeviceToken) or scope_allows(token, table=game.table)


def is_table_device(request: Request) -> bool:
    """A table's scorer device: it records play at its table with a referee's rights, whatever
    the rights of the official who issued it."""
    return isinstance(request.auth, DeviceToken) and request.auth.table_number is not None


def ruling_game(request: Request, game_id: int) -> Game | Response:
    """`official_game` for rulings (corrections, voids, forfeits, penalties, undo decisions):
    those need an official's own sign-in, never a table's scorer device."""
    if is_table_device(request):
        return error_response(
            "device_cannot_rule",
            "A table's scorer device records play; rulings (corrections, voids, forfeits, "
            "penalties, undo decisions) need an official's own sign-in.",
            "卓の記録端末では裁定（訂正・無効・棄権・罰則・取り消しの承認）はできません。"
            "役員本人のアカウントで行ってください。",
            status.HTTP_403_FORBIDDEN,
        )
    return official_game(request, game_id)


def official_game(request: Request, game_id: int) -> Game | Response:
    """The game, if the user may run its table (its referee, the head referee, an organiser):
    404 for a missing game or one the user may not even see, 403 for another official."""
    game = get_object_or_404(
        Game.objects.select_related("table__round__stage__tournament"), pk=game_id
    )
    if services.can_run_table(request.user, game.table) and scope_allows_request(request, game):
        return game
    visible_game(request, game_id)  # raises 404 when the user may not see the game at all
    return error_response(
        "permission_denied",
        "Only this table's referee, the head referee or an organiser.",
        "この卓の審判・主審・主催者のみ",
        status.HTTP_403_FORBIDDEN,
    )


# GameError codes that say the game or round changed state, not that the request was malformed:
# a team match's hand that later hands started from (掼蛋) is one.
CONFLICT_CODES = frozenset(
    {
        "result_changed",
        "round_closed",
        "no_result",
        "later_hands_follow",
        "cut_change_unconfirmed",
    }
)


class GameVersionsView(APIView):
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="games_versions_list",
        responses={200: ResultVersionListSerializer, 403: RulingErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        """Every version of the game's result, oldest first (officials of the table only):
        each recording, correction, forfeit, void or undo that changed it."""
        game = official_game(request, game_id)
        if isinstance(game, Response):
            return game
        versions = game.result_versions.select_related("actor").order_by("number")
        return Response(
            {
                "game": game.pk,
                "status": game.status,
                "result_version": game.result_version,
                "corrected_after_reveal": game.corrected_after_reveal,
                "versions": [_version_dict(v) for v in versions],
            }
        )


class GameCorrectionsView(APIView):
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="games_corrections_create",
        request=CorrectionSerializer,
        responses={
            201: ResultVersionSerializer,
            400: OpenApiResponse(
                RulingErrorSerializer,
                description="reason_required, correction_unchanged, quick_missing_place, "
                "quick_duplicate_place, quick_seat_not_at_table, quick_miyako_invalid…; for a "
                "Guandan hand quick_order_invalid, quick_not_in_family, "
                "aces_only_not_in_rules.",
            ),
            403: RulingErrorSerializer,
            409: OpenApiResponse(
                RulingErrorSerializer,
                description="result_changed (based_on_version is stale), round_closed, "
                "no_result (the game has no result to correct), later_hands_follow (a "
                "Guandan hand that later hands of the match started from), "
                "cut_change_unconfirmed (it changes who is above a stage's cut: send "
                "confirm_cut_change).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Correct a finished game's result (訂正) as a new version, with a reason: the head
        referee or an organiser; after the round's seed is revealed only an organiser (the
        version is then flagged publicly); after the round is closed, nobody. Standings are
        recomputed; earlier versions stay in the history."""
        game = ruling_game(request, game_id)
        if isinstance(game, Response):
            return game
        serializer = CorrectionSerializer(data=request.data)
        if not serializer.is_valid():
            return bad_request(serializer.errors)
        data = serializer.validated_data
        try:
            version = services.correct_result(
                game,
                request.user,
                finishing_order=data["finishing_order"],
                fouls=data["fouls"],
                miyako_ochi=data["miyako_ochi"],
                aces_only=data["aces_only"],
                reason=data["reason"],
                based_on_version=data["based_on_version"],
                confirm_cut_change=data["confirm_cut_change"],
            )
        except PermissionDenied as error:
            return error_response("permission_denied", str(error), "訂正する権限がありません", 403)
        except services.GameError as error:
            http = 409 if error.code in CONFLICT_CODES else 400
            return error_response(error.code, error.message_en, error.message_ja, http)
        return Response(_version_dict(version), status=status.HTTP_201_CREATED)
