"""Running a table through the API: what the referee console and the official's game page do,
for scorer devices and third-party tools (docs/api.md walks through it).

Every endpoint calls the same service as the page (`games.services`, `tournaments.services`),
so the rules, permission checks, audit rows and refusals kept for officials are the pages'
own. On top of the service's check each write verifies the object first — the table's referee,
the head referee or an organiser (`services.can_run_table`), 404 for whoever may not even see
it — and the device token's scope (`games.auth.require_scope`).

Errors are `{"code", "message_en", "message_ja"}`:

| HTTP | when                                                                         |
|------|------------------------------------------------------------------------------|
| 400  | `bad_request`: the body is not what the endpoint takes (field errors inside) |
| 401  | no credentials, or a revoked token                                           |
| 403  | `permission_denied`: not this table's official, outside the token's scope    |
| 404  | no such table/game/penalty, or one the user may not see                      |
| 409  | the game or round is not in a state for it (`CONFLICT_CODES`), or a          |
|      | correction's target (`seq`, `version`, `result_version`) is stale            |
| 422  | well formed but refused by the rules (an impossible result, no reason, …)    |

Nothing here returns a hand or a deal: results appear once a game has ended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import bad_request
from games import services
from games.api import (
    GUANDAN_PLACING_HELP,
    CorrectionInputSerializer,
    PlacingInputSerializer,
    PlacingRowSerializer,
    ReadOrAuthenticatedWrite,
    error_response,
    is_table_device,
    official_game,
    ruling_game,
)
from games.auth import DeviceTokenAuthentication, require_management_scope, require_scope
from games.models import LATEST_FIRST, Game, GameResult, Move
from games.public import seat_names
from games.results import result_fields, version_placing
from games.seating import position_at, positions_of
from scoring.standings import result_is_provisional
from tournaments import services as tournament_services
from tournaments.impact import CutChangeUnconfirmed, Impact
from tournaments.models import Penalty, Seat, Table
from tournaments.selectors import visible_tables, visible_tournaments

# Refusals that say the game, table or round is not in a state for the request (409); any
# other refusal by the rules is 422.
CONFLICT_CODES = frozenset(
    {
        "game_in_play",
        "game_void",
        "game_not_replayable",
        "round_complete",
        "round_draft",
        "round_settled",
        # A ruling changing who is above a stage's cut, sent without confirm_cut_change.
        CutChangeUnconfirmed.code,
        "round_closed",
        "no_seats",
        "no_game",
        "result_changed",
        "no_result",
        "game_over",
        "quick_result_conflict",
        "not_quick",
        "not_finished",
        "game_confirmed",
        "game_ruled",
        "undo_pending",
        "no_pending_undo",
        "nothing_to_undo",
        "not_withdrawable",
        "already_void",
        "not_latest_game",
        "already_withdrawn",
        "seq_conflict",
        # A team match (掼蛋 Guandan): over, or a later hand started from this one's result.
        "match_over",
        "later_hands_follow",
        "teams_not_facing",
        # A team match's record: no hand ended yet, or one not replayable from its cards.
        "no_hands_ended",
        "match_not_replayable",
        # A correcting action's target is stale (games.services.STALE_TARGET_CODES).
        *services.STALE_TARGET_CODES,
    }
)
# Refusals that say who may do it (403).
FORBIDDEN_CODES = frozenset({"approval_required"})


# --- shapes ------------------------------------------------------------------------------------


class TableErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="Stable code: bad_request, permission_denied, game_in_play, round_complete, "
        "quick_missing_place, reason_required… (docs/api.md lists them)."
    )
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    game_id = serializers.IntegerField(
        required=False, help_text="game_in_play: the game in play at the table."
    )
    expected_seq = serializers.IntegerField(
        required=False,
        help_text="seq_conflict, already_undone: the game's last_seq now (already_decided: "
        "the undo waiting now, or null).",
    )
    expected_version = serializers.IntegerField(
        required=False,
        help_text="game_changed, already_void, already_forfeited: the game's version now; "
        "result_changed, already_withdrawn: its result_version now.",
    )


class GameResultRowSerializer(PlacingRowSerializer):
    entry_number = serializers.IntegerField()
    player = serializers.CharField()


class GameSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    attempt = serializers.IntegerField(help_text="2, 3… for a voided game dealt again.")
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    seats = serializers.IntegerField()
    seating = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The table position (1-based, as in `seats`) whose player plays each engine "
        "seat of this game: [1, 2, 3, 4] as drawn; another order after a seat change (UECda "
        "席替え), drawn from the round's seed (docs/formats.md).",
    )
    version = serializers.IntegerField(
        help_text="Changes with every write to the game: send it with a void or a forfeit."
    )
    last_seq = serializers.IntegerField(help_text="Send it as seq with an undo.")
    next_seq = serializers.IntegerField(help_text="The seq to send with the next move.")
    undo_pending_seq = serializers.IntegerField(
        allow_null=True,
        help_text="An undo waiting for the head referee (no moves meanwhile): send it as seq "
        "with the decision.",
    )
    forfeit_seat = serializers.IntegerField(allow_null=True)
    result_version = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="Finished, waiting for a second official's confirmation (暫定)."
    )
    void_reason = serializers.CharField(allow_blank=True)
    redeal = serializers.BooleanField()
    results = GameResultRowSerializer(
        many=True, help_text="First place first, once the game has ended; [] before."
    )


class NextGameSerializer(serializers.Serializer[Any]):
    set_number = serializers.IntegerField()
    game_number = serializers.IntegerField()
    attempt = serializers.IntegerField()
    seating = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The table position whose player will play each engine seat of that game "
        "(an open table's `leader` is one of these seats).",
    )
    seat_change = serializers.BooleanField(
        help_text="The game starts a new seating (UECda 席替え): the players move first."
    )
    title_reset = serializers.BooleanField(
        help_text="The game starts a new title cycle (UECda 階級リセット): no titles, no exchange."
    )


class SeatRowSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        help_text="The engine seat (0-based, turn order) this player plays in the current game."
    )
    position = serializers.IntegerField(help_text="The table position the draw gave (1-based).")
    entry_number = serializers.IntegerField()
    player = serializers.CharField()


class TableGamesSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    seats = SeatRowSerializer(many=True)
    current_game = GameSummarySerializer(
        allow_null=True, help_text="The table's latest game (in play or the last one played)."
    )
    next_game = NextGameSerializer(
        allow_null=True, help_text="What starting a game now starts; null when it cannot start."
    )
    next_blocker = TableErrorSerializer(
        allow_null=True, help_text="Why no game can start now (game_in_play, round_complete…)."
    )
    games = GameSummarySerializer(many=True, help_text="Every game, in playing order.")


class StartGameSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(
        choices=Game.Mode.choices,
        default=Game.Mode.KNOWN_DEAL,
        help_text="known_deal: the deal follows from the round's seed, moves are recorded one "
        "by one; open_table: real shuffled cards, moves recorded; quick: only the result.",
    )
    leader = serializers.IntegerField(
        min_value=0,
        max_value=4,
        required=False,
        allow_null=True,
        default=None,
        help_text="Open table: the seat holding the opening card (leader_required otherwise).",
    )


class QuickResultInputSerializer(PlacingInputSerializer):
    aces_only = serializers.BooleanField(
        required=False,
        default=False,
        help_text=f"{GUANDAN_PLACING_HELP}.",
    )


class TableReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=300, allow_blank=True, help_text="Required (reason_required when blank)."
    )


class UndoRequestSerializer(TableReasonSerializer):
    seq = serializers.IntegerField(
        min_value=0,
        help_text="The game's last_seq as you saw it: names the move you undo. Sent twice, "
        "or after another official's undo, it is refused (409 already_undone); after other "
        "moves, 409 seq_conflict — never a second move taken back.",
    )
    result_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="Quick games (required there): the result_version you saw — the result this "
        "withdraws (409 already_withdrawn when sent twice, result_changed when it changed).",
    )


class QuickResultWithdrawSerializer(TableReasonSerializer):
    result_version = serializers.IntegerField(
        min_value=0,
        help_text="The result_version you saw: names the result you withdraw (409 "
        "already_withdrawn when sent twice, result_changed when it changed since).",
    )


class UndoResultSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["applied", "pending", "withdrawn"],
        help_text="applied: the move is taken back; pending: waiting for the head referee; "
        "withdrawn: a quick game's result was taken back (the game is in play again).",
    )
    undo_seq = serializers.IntegerField(allow_null=True, help_text="The undo's row in the log.")
    target_seq = serializers.IntegerField(allow_null=True, help_text="The move it takes back.")
    game = GameSummarySerializer()


class UndoDecisionSerializer(serializers.Serializer[Any]):
    approve = serializers.BooleanField()
    seq = serializers.IntegerField(
        min_value=1,
        help_text="The game's undo_pending_seq as you saw it: names the undo you decide (409 "
        "already_decided when it was decided already, seq_conflict when another is waiting).",
    )


class GameVersionSerializer(TableReasonSerializer):
    version = serializers.IntegerField(
        min_value=0,
        help_text="The game's version as you saw it (GET /api/tables/<id>/games/): refused "
        "with 409 game_changed if the game changed since (a move, a result, a ruling).",
    )


class UndoDecisionResultSerializer(serializers.Serializer[Any]):
    approved = serializers.BooleanField()
    decision_seq = serializers.IntegerField()
    target_seq = serializers.IntegerField(help_text="The undo row decided on.")
    game = GameSummarySerializer()


class RulingConfirmSerializer(serializers.Serializer[Any]):
    """What every ruling takes beside its own fields: a dry run, and the cut confirmation."""

    preview = serializers.BooleanField(
        default=False,
        help_text="Only show what the ruling would change (the rank changes per scope and the "
        "cut changes, `standings`): nothing is saved.",
    )
    confirm_cut_change = serializers.BooleanField(
        default=False,
        help_text="You have seen that the ruling changes who is above a stage's cut (the "
        "preview's needs_cut_confirmation) and confirm it: without it such a ruling is "
        "refused (409 cut_change_unconfirmed). Recorded in the audit with the reason.",
    )


class VoidSerializer(GameVersionSerializer, RulingConfirmSerializer):
    redeal = serializers.BooleanField(
        default=False, help_text="Play the game again with a new deal (attempt + 1)."
    )


class ForfeitSerializer(GameVersionSerializer, RulingConfirmSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=4, help_text="The seat that leaves.")
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=4),
        required=False,
        default=list,
        help_text="The others' finishing order, first first: needed when the tournament's "
        "forfeit rule is referee_order, and for quick games.",
    )


class PreviewChangeSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The entry's id.")
    before = serializers.JSONField(allow_null=True, help_text="As a result version records it.")
    after = serializers.JSONField()
    changed = serializers.BooleanField()


class ImpactWhoSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(
        allow_null=True, help_text="The entry's id (none in a season)."
    )
    entry_number = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()


class RankChangeSerializer(ImpactWhoSerializer):
    rank_before = serializers.IntegerField(allow_null=True, help_text="None: not on the board.")
    tied_before = serializers.BooleanField(help_text="Another row shares the rank.")
    rank_after = serializers.IntegerField(allow_null=True)
    tied_after = serializers.BooleanField()


class CutMoveSerializer(ImpactWhoSerializer):
    before = serializers.CharField(help_text="in (above the cut), tied (on the line) or out.")
    after = serializers.CharField(help_text="in, tied or out, after the ruling.")


class CutChangeSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    stage_name = serializers.CharField()
    rule = serializers.CharField()
    advanced = serializers.BooleanField(help_text="The stage's qualifiers moved on already.")
    advanced_to = serializers.CharField(allow_blank=True)
    moves = CutMoveSerializer(many=True)
    falls_out = serializers.ListField(child=serializers.IntegerField())
    comes_in = serializers.ListField(child=serializers.IntegerField())
    tied_after = serializers.ListField(child=serializers.IntegerField())


class ScopeImpactSerializer(serializers.Serializer[Any]):
    scope = serializers.ChoiceField(choices=["tournament", "stage", "season"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    rank_changes = RankChangeSerializer(many=True)
    cut_change = CutChangeSerializer(allow_null=True)


class StandingsImpactSerializer(serializers.Serializer[Any]):
    """What a ruling changes, computed by the standings code itself on the ruling's own
    write, rolled back: only the scopes where something moves."""

    scopes = ScopeImpactSerializer(many=True)
    cut_changes = CutChangeSerializer(many=True)
    needs_cut_confirmation = serializers.BooleanField(
        help_text="Saving needs confirm_cut_change (else 409 cut_change_unconfirmed)."
    )


class RulingPreviewSerializer(serializers.Serializer[Any]):
    preview = serializers.BooleanField(help_text="Always true: nothing was saved.")
    standings = StandingsImpactSerializer()


def ruling_preview(impact: Impact) -> Response:
    """A ruling's dry run (`preview: true`): what it would change, nothing saved."""
    return Response({"preview": True, "standings": impact.as_dict()})


class CorrectionPreviewSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    based_on_version = serializers.IntegerField(
        help_text="Send it as based_on_version with the correction (POST …/corrections/)."
    )
    after_reveal = serializers.BooleanField(
        help_text="The round's seed is revealed: the correction will be flagged publicly."
    )
    changes_anything = serializers.BooleanField()
    changes = PreviewChangeSerializer(many=True)
    standings = StandingsImpactSerializer()


class GamePenaltyCreateSerializer(TableReasonSerializer, RulingConfirmSerializer):
    seat = serializers.IntegerField(min_value=0, max_value=4, help_text="The player's seat.")
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    points = serializers.IntegerField(
        required=False, default=0, help_text="A deduction's points (at least 1); 0 for a warning."
    )


class PenaltyWithdrawSerializer(TableReasonSerializer, RulingConfirmSerializer):
    pass


class GamePenaltySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entry_number = serializers.IntegerField()
    player = serializers.CharField()
    kind = serializers.CharField(help_text="warning (警告) or deduction (減点).")
    points = serializers.IntegerField()
    reason = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    withdrawn_reason = serializers.CharField(allow_blank=True)


# --- helpers -----------------------------------------------------------------------------------


def _forbidden(error: PermissionDenied | str) -> Response:
    return error_response(
        "permission_denied",
        str(error) or "Not allowed.",
        "この操作を行う権限がありません",
        status.HTTP_403_FORBIDDEN,
    )


def _refused(error: services.GameError | tournament_services.DomainError) -> Response:
    http: int
    if error.code in CONFLICT_CODES:
        http = status.HTTP_409_CONFLICT
    elif error.code in FORBIDDEN_CODES:
        http = status.HTTP_403_FORBIDDEN
    else:
        http = status.HTTP_422_UNPROCESSABLE_ENTITY
    detail = getattr(error, "detail", {})  # e.g. expected_seq of a stale undo
    return error_response(error.code, error.message_en, error.message_ja, http, **detail)


def _call(action: Callable[[], Response]) -> Response:
    """Run a service call, turning its refusals into the API's error answers."""
    try:
        return action()
    except PermissionDenied as error:
        return _forbidden(error)
    except (services.GameError, tournament_services.DomainError) as error:
        return _refused(error)


def game_write(
    request: Request,
    game_id: int,
    body_type: type[serializers.Serializer[Any]],
    act: Callable[[Game, dict[str, Any]], Response],
    *,
    ruling: bool = False,
) -> Response:
    """Every game write has one shape: the game, if the user may write it (`ruling`: a ruling
    needs the head referee or an organiser, never a table's scorer device); the body, checked;
    then `act`, its refusals answered as API errors."""
    game = ruling_game(request, game_id) if ruling else official_game(request, game_id)
    if isinstance(game, Response):
        return game
    body = body_type(data=request.data)
    if not body.is_valid():
        return bad_request(body.errors)
    return _call(lambda: act(game, body.validated_data))


def _seat_rows(table_id: int, game: Game | None = None) -> list[dict[str, Any]]:
    """The table's seats in engine-seat order of `game` (its seating), else as drawn."""
    return seat_names(table_id, game)


def _result_rows(game: Game, by_position: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    if game.status not in (Game.Status.FINISHED, Game.Status.CONFIRMED):
        return []  # never anything of a game in play (nor of a void one)
    rows: list[GameResult] = sorted(game.results.all(), key=lambda r: r.place)
    positions = positions_of(game)
    return [
        {
            "seat": r.seat,
            "entry_number": r.entry.number,
            "player": by_position.get(positions[r.seat], {}).get(
                "player", r.entry.player.display_name
            ),
            "place": r.place,
            **result_fields(r.team, r.detail),
            "forfeit": r.forfeit,
            "points": r.points,
        }
        for r in rows
    ]


def game_summary(
    game: Game, by_position: dict[int, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A game as the API shows it: numbers, status, its seating, and the result once it has
    ended — never a hand, a deal or the blind. `by_position`: the table's seat rows by table
    position, when the caller has them."""
    if by_position is None:
        by_position = {s["position"]: s for s in seat_names(game.table_id)}
    return {
        "id": game.pk,
        "table": game.table_id,
        "set_number": game.set_number,
        "game_number": game.game_number,
        "attempt": game.attempt,
        "mode": game.mode,
        "status": game.status,
        "seats": game.seats,
        "seating": list(positions_of(game)),
        "version": game.version,
        "last_seq": game.last_seq,
        "next_seq": game.last_seq + 1,
        "undo_pending_seq": game.undo_pending_seq,
        "forfeit_seat": game.forfeit_seat,
        "result_version": game.result_version,
        "provisional": result_is_provisional(game),
        "void_reason": game.void_reason,
        "redeal": game.redeal,
        "results": _result_rows(game, by_position),
    }


def _fresh(game: Game) -> dict[str, Any]:
    return game_summary(Game.objects.get(pk=game.pk))


def writable_table(request: Request, table_id: int) -> Table | Response:
    """The table, if the user may run it (as the console: its referee, the head referee, an
    organiser) and the device token's scope covers it: 404 for a table the user may not see,
    403 for another table's official or a token scoped elsewhere."""
    table = get_object_or_404(
        Table.objects.select_related("round__stage__tournament", "referee"), pk=table_id
    )
    if not services.can_run_table(request.user, table):
        if not visible_tables(request.user).filter(pk=table.pk).exists():
            raise Http404("No such table.")
        return _forbidden("Only this table's referee, the head referee or an organiser.")
    try:
        require_scope(request.auth, table=table)
    except PermissionDenied as error:
        return _forbidden(error)
    return table


def _errors(*extra: int, conflict: str = "", unprocessable: str = "") -> dict[int, Any]:
    """The documented error answers of a write endpoint."""
    answers: dict[int, Any] = {
        400: OpenApiResponse(TableErrorSerializer, description="bad_request: a malformed body."),
        401: OpenApiResponse(description="No credentials, or a revoked device token."),
        403: OpenApiResponse(
            TableErrorSerializer,
            description="permission_denied: not an official of this table (or not the head "
            "referee where a ruling needs one), or the device token's scope is another table.",
        ),
        404: OpenApiResponse(description="No such object, or one you may not see."),
    }
    if conflict:
        answers[409] = OpenApiResponse(TableErrorSerializer, description=conflict)
    if unprocessable:
        answers[422] = OpenApiResponse(TableErrorSerializer, description=unprocessable)
    return answers


class TableAPIView(APIView):
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]


# --- the table: its games, starting the next ---------------------------------------------------


class TableGamesView(TableAPIView):
    permission_classes = [ReadOrAuthenticatedWrite]

    @extend_schema(
        operation_id="tables_games_list",
        responses={200: TableGamesSerializer, 404: OpenApiResponse(description="No such table.")},
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The table's seats, its games in playing order (status, set/game/attempt, the result
        once a game has ended — never a hand) and what starting a game would start now.
        Whoever may see the table may read it (as its public live page)."""
        table = get_object_or_404(visible_tables(request.user), pk=table_id)
        games = list(
            table.games.prefetch_related(
                Prefetch("results", GameResult.objects.select_related("entry__player"))
            ).order_by("set_number", "game_number", "attempt")
        )
        latest = table.games.order_by(*LATEST_FIRST).values_list("pk", flat=True).first()
        seats = _seat_rows(table.pk, next((g for g in games if g.pk == latest), None))
        by_position = {s["position"]: s for s in seats}
        summaries = [game_summary(g, by_position) for g in games]
        current = next((s for s in summaries if s["id"] == latest), None)
        numbers, blocker = services.next_game_fields(table)
        next_game: dict[str, Any] | None = None if numbers is None else dict(numbers)
        if next_game is not None:
            # A device announces a seat change before it starts the game, and names an open
            # table's leader by the new game's seats.
            opening = services.game_opening(table, services.NextGame(**next_game))
            next_game |= {
                "seating": list(opening.seating),
                "seat_change": opening.seat_change,
                "title_reset": opening.title_reset,
            }
        if blocker is not None and blocker["code"] == "game_in_play" and latest is not None:
            blocker["game_id"] = latest
        return Response(
            {
                "table": table.pk,
                "number": table.number,
                "round": table.round_id,
                "round_status": table.round.status,
                "seats": seats,
                "current_game": current,
                "next_game": next_game,
                "next_blocker": blocker,
                "games": summaries,
            }
        )

    @extend_schema(
        operation_id="tables_games_create",
        request=StartGameSerializer,
        responses={
            201: GameSummarySerializer,
            **_errors(
                conflict="game_in_play (a game is in play: its id is in game_id), "
                "round_complete (every set is played), round_draft, round_settled, no_seats, "
                "match_over (a Guandan team match is over: won at A, all hands played, or "
                "time is up).",
                unprocessable="leader_required (open table: say who leads), "
                "open_table_unsupported (Guandan), bad deal set-up.",
            ),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Start the table's next game, as the console's start button: the next set/game
        (or attempt, after a void with re-deal), titles carried over within the set, the deal
        of a known-deal game derived from the round's committed seed. Starting while a game is
        in play is refused with 409 `game_in_play` and that game's id (safe to retry)."""
        table = writable_table(request, table_id)
        if isinstance(table, Response):
            return table
        body = StartGameSerializer(data=request.data)
        if not body.is_valid():
            return bad_request(body.errors)
        data = body.validated_data

        def start() -> Response:
            try:
                game = services.start_game(
                    table, request.user, mode=data["mode"], leader=data["leader"]
                )
            except services.GameError as error:
                if error.code != "game_in_play":
                    raise
                in_play = table.games.order_by(*LATEST_FIRST).values_list("pk", flat=True).first()
                return error_response(
                    error.code, error.message_en, error.message_ja, 409, game_id=in_play
                )
            return Response(_fresh(game), status=status.HTTP_201_CREATED)

        return _call(start)


# --- quick results ---------------------------------------------------------------------------


class QuickResultView(TableAPIView):
    @extend_schema(
        operation_id="games_quick_result_create",
        request=QuickResultInputSerializer,
        responses={
            201: GameSummarySerializer,
            200: OpenApiResponse(
                GameSummarySerializer,
                description="Sent again: the game already has this very result (the first "
                "answer was lost). Nothing was written; the game as it is.",
            ),
            **_errors(
                conflict="not_quick (the game is recorded move by move), quick_result_conflict "
                "(the game already has a different result: correct it on the game's page), "
                "game_over (confirmed, void or forfeited).",
                unprocessable="quick_seat_not_at_table, quick_duplicate_place, "
                "quick_missing_place, quick_foul_invalid, quick_miyako_invalid, "
                "quick_miyako_missing, quick_order_invalid, quick_not_in_family, "
                "aces_only_not_in_rules (the result is not a possible one; nothing saved).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Record a quick game's result (the console's quick-result form): the finishing
        order, the fouls in order and the fallen 大富豪 (都落ち); titles and points follow from
        the rules. The result is provisional until a second official confirms it. A Guandan
        hand takes the finishing order as far as it decides the hand, and `aces_only`.

        Safe to resend (an offline phone, a lost answer): the same result for a game that
        already has it answers 200 and writes nothing; a different one, 409
        `quick_result_conflict`."""

        def record(game: Game, data: dict[str, Any]) -> Response:
            outcome = services.record_quick_result(
                game,
                request.user,
                data["finishing_order"],
                data["fouls"],
                data["miyako_ochi"],
                aces_only=data["aces_only"],
            )
            answer = status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED
            return Response(_fresh(game), status=answer)

        return game_write(request, game_id, QuickResultInputSerializer, record)


class QuickResultWithdrawView(TableAPIView):
    @extend_schema(
        operation_id="games_quick_result_withdraw",
        request=QuickResultWithdrawSerializer,
        responses={
            200: GameSummarySerializer,
            **_errors(
                conflict="already_withdrawn (sent twice: withdrawn already), result_changed "
                "(result_version is stale: expected_version), not_withdrawable (not a quick "
                "result, or already confirmed), game_ruled (a forfeit: correct it instead).",
                unprocessable="reason_required.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Take back a quick result entered by mistake, before it is confirmed (the game is in
        play again; the withdrawn result stays in its versions). Where undos need the head
        referee's approval, only the head referee or an organiser withdraws (403
        `approval_required` for a table referee)."""

        def withdraw(game: Game, data: dict[str, Any]) -> Response:
            services.withdraw_quick_result(
                game, request.user, data["reason"], result_version=data["result_version"]
            )
            return Response(_fresh(game))

        return game_write(request, game_id, QuickResultWithdrawSerializer, withdraw)


# --- undo --------------------------------------------------------------------------------------


class UndoView(TableAPIView):
    @extend_schema(
        operation_id="games_undo_create",
        request=UndoRequestSerializer,
        responses={
            201: UndoResultSerializer,
            **_errors(
                conflict="already_undone (the move `seq` names was undone already: a repeat, "
                "or another official), seq_conflict (other moves since `seq`: expected_seq), "
                "undo_pending, nothing_to_undo, game_confirmed, game_ruled; quick games: "
                "already_withdrawn, result_changed, not_withdrawable.",
                unprocessable="reason_required.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Take back the latest move in force, with a reason (the console's undo): applied at
        once, or — where the tournament wants the head referee's approval and you are not the
        head referee — left pending (`status: pending`; no moves until it is decided). On a
        quick game, as in the console, this withdraws the recorded result."""

        def undo(game: Game, data: dict[str, Any]) -> Response:
            body: dict[str, Any]
            if game.mode == Game.Mode.QUICK:
                if "result_version" not in data:
                    return bad_request(
                        {"result_version": ["A quick game's undo names the result it withdraws."]}
                    )
                services.withdraw_quick_result(
                    game, request.user, data["reason"], result_version=data["result_version"]
                )
                body = {"status": "withdrawn", "undo_seq": None, "target_seq": None}
            else:
                row = services.request_undo(
                    game,
                    request.user,
                    data["reason"],
                    seq=data["seq"],
                    as_referee=is_table_device(request),
                )
                body = {
                    "status": "applied" if row.approved else "pending",
                    "undo_seq": row.seq,
                    "target_seq": row.ref_seq,
                }
            return Response(body | {"game": _fresh(game)}, status=status.HTTP_201_CREATED)

        return game_write(request, game_id, UndoRequestSerializer, undo)


class UndoDecisionView(TableAPIView):
    @extend_schema(
        operation_id="games_undo_decision_create",
        request=UndoDecisionSerializer,
        responses={
            200: UndoDecisionResultSerializer,
            **_errors(
                conflict="already_decided (the undo `seq` names was decided already), "
                "seq_conflict (another undo is waiting: expected_seq), no_pending_undo."
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """The head referee (or an organiser) approves or refuses the pending undo — the one
        `seq` names, so a repeat or a second official decides nothing more."""

        def decide(game: Game, data: dict[str, Any]) -> Response:
            row: Move = services.decide_undo(game, request.user, data["approve"], seq=data["seq"])
            return Response(
                {
                    "approved": bool(row.approved),
                    "decision_seq": row.seq,
                    "target_seq": row.ref_seq,
                    "game": _fresh(game),
                }
            )

        return game_write(request, game_id, UndoDecisionSerializer, decide, ruling=True)


# --- rulings: void, forfeit, correction preview ------------------------------------------------


class VoidView(TableAPIView):
    @extend_schema(
        operation_id="games_void_create",
        request=VoidSerializer,
        responses={
            200: PolymorphicProxySerializer(
                "VoidAnswer",
                [GameSummarySerializer, RulingPreviewSerializer],
                resource_type_field_name=None,
            ),
            **_errors(
                conflict="already_void (a repeat: void already), game_changed (`version` is "
                "stale: expected_version), not_latest_game (later games were played at the "
                "table), round_closed, round_settled, cut_change_unconfirmed (it changes who "
                "is above a stage's cut: preview, then send confirm_cut_change).",
                unprocessable="reason_required.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Void the game (misdeal, wrong cards…): it counts for nothing, its record stays. With
        `redeal` the table plays it again with a new deal (attempt + 1). Rulings are the head
        referee's or an organiser's until the round's seed is revealed, then an organiser's
        only; after the round is closed, nobody's (409 round_closed)."""

        def void(game: Game, data: dict[str, Any]) -> Response:
            asked = {"reason": data["reason"], "redeal": data["redeal"], "version": data["version"]}
            if data["preview"]:
                return ruling_preview(services.preview_void(game, request.user, **asked))
            services.void_game(
                game, request.user, confirm_cut_change=data["confirm_cut_change"], **asked
            )
            return Response(_fresh(game))

        return game_write(request, game_id, VoidSerializer, void, ruling=True)


class ForfeitView(TableAPIView):
    @extend_schema(
        operation_id="games_forfeit_create",
        request=ForfeitSerializer,
        responses={
            200: RulingPreviewSerializer,
            201: GameSummarySerializer,
            **_errors(
                conflict="already_forfeited (a repeat: recorded already), game_changed "
                "(`version` is stale: expected_version), game_over (only a game in play), "
                "round_closed, round_settled, cut_change_unconfirmed (it changes who is above "
                "a stage's cut: preview, then send confirm_cut_change).",
                unprocessable="reason_required, forfeit_seat_invalid, forfeit_already_out, "
                "forfeit_order_invalid (referee_order: give the others' order).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """A player leaves mid-game (途中棄権): placed last, the others finishing by the
        tournament's forfeit rule (or `order`); the game counts as settled. Rulings are the head
        referee's or an organiser's until the round's seed is revealed, then an organiser's
        only; after the round is closed, nobody's (409 round_closed)."""

        def forfeit(game: Game, data: dict[str, Any]) -> Response:
            if data["seat"] >= game.seats:
                return error_response(
                    "forfeit_seat_invalid",
                    "Choose the player who leaves.",
                    "棄権する人を選んでください",
                    422,
                )

            asked = {
                "seat": data["seat"],
                "reason": data["reason"],
                "order": data["order"],
                "version": data["version"],
            }
            if data["preview"]:
                return ruling_preview(services.preview_forfeit(game, request.user, **asked))
            services.forfeit_seat(
                game, request.user, confirm_cut_change=data["confirm_cut_change"], **asked
            )
            return Response(_fresh(game), status=status.HTTP_201_CREATED)

        return game_write(request, game_id, ForfeitSerializer, forfeit, ruling=True)


class CorrectionPreviewView(TableAPIView):
    @extend_schema(
        operation_id="games_correction_preview",
        request=CorrectionInputSerializer,
        responses={
            200: CorrectionPreviewSerializer,
            **_errors(
                conflict="no_result (the game has no result yet), round_closed, "
                "later_hands_follow (a Guandan hand that later hands of the match started "
                "from).",
                unprocessable="quick_missing_place, quick_duplicate_place, "
                "quick_seat_not_at_table… (not a possible result); for a Guandan hand "
                "quick_order_invalid, quick_not_in_family, aces_only_not_in_rules.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """The result before and after a correction, side by side, with the version it is
        based on — nothing is saved. Save it with POST /api/games/{id}/corrections/ (the head
        referee or an organiser; after the seed is revealed an organiser only)."""

        def preview(game: Game, data: dict[str, Any]) -> Response:
            found = services.preview_correction(
                game,
                request.user,
                data["finishing_order"],
                data["fouls"],
                data["miyako_ochi"],
                aces_only=data["aces_only"],
            )
            return Response(
                {
                    "game": game.pk,
                    "based_on_version": found.based_on_version,
                    "after_reveal": found.after_reveal,
                    "changes_anything": found.changes_anything,
                    "changes": [
                        {
                            "seat": c.seat,
                            "entry": c.entry_id,
                            "before": version_placing(c.before) if c.before else None,
                            "after": version_placing(c.after),
                            "changed": c.changed,
                        }
                        for c in sorted(found.changes, key=lambda c: c.seat)
                    ],
                    # Who moves from which rank to which, per scope, and the cut changes.
                    "standings": found.impact.as_dict(),
                }
            )

        return game_write(request, game_id, CorrectionInputSerializer, preview, ruling=True)


# --- penalties ---------------------------------------------------------------------------------


def penalty_dict(penalty: Penalty) -> dict[str, Any]:
    return {
        "id": penalty.pk,
        "entry_number": penalty.entry.number,
        "player": penalty.entry.player.display_name,
        "kind": penalty.kind,
        "points": penalty.points,
        "reason": penalty.reason,
        "round": penalty.round_id,
        "game": penalty.game_id,
        "created_at": penalty.created_at,
        "withdrawn_at": penalty.withdrawn_at,
        "withdrawn_reason": penalty.withdrawn_reason,
    }


def _table_penalties(game: Game) -> list[Penalty]:
    entries = Seat.objects.filter(table_id=game.table_id).values("entry_id")
    return list(
        Penalty.objects.filter(
            tournament_id=game.table.round.stage.tournament_id, entry_id__in=entries
        )
        .select_related("entry__player")
        .order_by("created_at", "pk")
    )


class GamePenaltiesView(TableAPIView):
    @extend_schema(
        operation_id="games_penalties_list",
        responses={
            200: GamePenaltySerializer(many=True),
            **{code: answer for code, answer in _errors().items() if code != 400},
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The penalties of the players at the game's table (withdrawn ones too, flagged) —
        as the official's game page lists them (officials of the table only)."""
        game = official_game(request, game_id)
        if isinstance(game, Response):
            return game
        return Response([penalty_dict(p) for p in _table_penalties(game)])

    @extend_schema(
        operation_id="games_penalties_create",
        request=GamePenaltyCreateSerializer,
        responses={
            200: RulingPreviewSerializer,
            201: GamePenaltySerializer,
            **_errors(
                conflict="cut_change_unconfirmed (it changes who is above a stage's cut: "
                "preview, then send confirm_cut_change).",
                unprocessable="reason_required, penalty_points_invalid (a deduction takes at "
                "least one point), bad_entry (no player in that seat).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """A warning (警告) or a points deduction (減点) for a player at the table, in this
        game: the head referee's or an organiser's ruling, audited, counted in every standing
        at once."""

        def give(game: Game, data: dict[str, Any]) -> Response:
            # No table position is 0: a seat the game does not have finds nobody.
            position = position_at(game, data["seat"]) or 0
            seat = (
                Seat.objects.filter(table_id=game.table_id, position=position)
                .select_related("entry__tournament")
                .first()
            )

            if seat is None:
                raise tournament_services.DomainError(
                    "Choose a player seated at this table.",
                    "この卓の選手を選んでください。",
                    "bad_entry",
                )
            asked = {
                "kind": data["kind"],
                "reason": data["reason"],
                "points": data["points"],
                "round_": game.table.round,
                "game_id": game.pk,
            }
            if data["preview"]:
                impact = tournament_services.preview_penalty(seat.entry, request.user, **asked)
                return ruling_preview(impact)
            penalty = tournament_services.give_penalty(
                seat.entry, request.user, confirm_cut_change=data["confirm_cut_change"], **asked
            )
            penalty = Penalty.objects.select_related("entry__player").get(pk=penalty.pk)
            return Response(penalty_dict(penalty), status=status.HTTP_201_CREATED)

        return game_write(request, game_id, GamePenaltyCreateSerializer, give, ruling=True)


class PenaltyWithdrawView(TableAPIView):
    @extend_schema(
        operation_id="penalties_withdraw",
        request=PenaltyWithdrawSerializer,
        responses={
            200: PolymorphicProxySerializer(
                "PenaltyWithdrawAnswer",
                [GamePenaltySerializer, RulingPreviewSerializer],
                resource_type_field_name=None,
            ),
            **_errors(
                conflict="already_withdrawn, cut_change_unconfirmed (it changes who is above "
                "a stage's cut: preview, then send confirm_cut_change).",
                unprocessable="reason_required.",
            ),
        },
    )
    def post(self, request: Request, penalty_id: int) -> Response:
        """Take back a mistaken penalty (the head referee or an organiser): it stays on record,
        no longer counted. A device token must cover the penalty's game (a penalty given
        outside a game needs a token not limited to one table)."""
        penalty = get_object_or_404(
            Penalty.objects.select_related("tournament", "entry__player", "round", "game__table"),
            pk=penalty_id,
            tournament__in=visible_tournaments(request.user).values("pk"),
        )
        if penalty.game_id is not None:
            game = ruling_game(request, penalty.game_id)
            if isinstance(game, Response):
                return game
        else:
            try:
                require_management_scope(request.auth, penalty.tournament)
            except PermissionDenied as error:
                return _forbidden(error)
        body = PenaltyWithdrawSerializer(data=request.data)
        if not body.is_valid():
            return bad_request(body.errors)
        data = body.validated_data

        def withdraw() -> Response:
            if data["preview"]:
                impact = tournament_services.preview_withdraw_penalty(
                    penalty, request.user, reason=data["reason"]
                )
                return ruling_preview(impact)
            withdrawn = tournament_services.withdraw_penalty(
                penalty,
                request.user,
                reason=data["reason"],
                confirm_cut_change=data["confirm_cut_change"],
            )
            withdrawn = Penalty.objects.select_related("entry__player").get(pk=withdrawn.pk)
            return Response(penalty_dict(withdrawn))

        return _call(withdraw)


__all__ = [
    "CorrectionPreviewView",
    "ForfeitView",
    "GamePenaltiesView",
    "PenaltyWithdrawView",
    "QuickResultView",
    "QuickResultWithdrawView",
    "TableGamesView",
    "UndoDecisionView",
    "UndoView",
    "VoidView",
    "game_summary",
]
