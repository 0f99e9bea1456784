"""The think-time clock through the API (games.clock): a referee's time fault (時間切れ), as the
console's one tap records it, for scorer devices and tools (docs/api.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.api_table import GameSummarySerializer, TableAPIView, _errors, _fresh, game_write
from games.models import Game, TimeFault


class TimeFaultInputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        min_value=0, max_value=4, help_text="The engine seat in turn (0 = the first seat)."
    )
    seq = serializers.IntegerField(
        min_value=0,
        help_text="The game's last_seq as you saw it: names the decision that overran. Sent "
        "twice, the fault already recorded is answered (200, created false); after the game "
        "moved on, 409 seq_conflict.",
    )


class TimeFaultSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    due_seq = serializers.IntegerField(help_text="The log's last seq when the decision was due.")
    rule = serializers.ChoiceField(
        choices=TimeFault.Rule.choices,
        help_text="What was applied: warning, forced_pass, penalty (a deduction). A forced pass "
        "the engine refuses (the seat leads) is recorded as a warning, with refused_code.",
    )
    refused_code = serializers.CharField(help_text="Why a forced pass became a warning, or ''.")
    think_ms = serializers.IntegerField(help_text="How long the decision had run, in ms.")
    pass_seq = serializers.IntegerField(allow_null=True, help_text="The forced pass's seq.")
    penalty = serializers.IntegerField(allow_null=True, help_text="The penalty given, its id.")
    points = serializers.IntegerField(help_text="Points deducted (0 for a warning or a pass).")
    created_at = serializers.DateTimeField()


class TimeFaultResultSerializer(serializers.Serializer[Any]):
    created = serializers.BooleanField(
        help_text="False: this decision's fault was recorded already (a second tap)."
    )
    fault = TimeFaultSerializer()
    message_en = serializers.CharField()
    message_ja = serializers.CharField()
    game = GameSummarySerializer()


def fault_dict(fault: TimeFault) -> dict[str, Any]:
    return {
        "id": fault.pk,
        "seat": fault.seat,
        "due_seq": fault.due_seq,
        "rule": fault.rule,
        "refused_code": fault.refused_code,
        "think_ms": fault.think_ms,
        "pass_seq": fault.pass_seq,
        "penalty": fault.penalty_id,
        "points": fault.penalty.points if fault.penalty is not None else 0,
        "created_at": fault.created_at,
    }


class TimeFaultsView(TableAPIView):
    @extend_schema(
        operation_id="games_time_faults_create",
        request=TimeFaultInputSerializer,
        responses={
            201: TimeFaultResultSerializer,
            200: OpenApiResponse(
                TimeFaultResultSerializer,
                description="The decision's fault was recorded already: nothing more was done.",
            ),
            **_errors(
                conflict="seq_conflict (the game moved on since `seq`: expected_seq), "
                "game_over, undo_pending.",
                unprocessable="clock_off (the tournament has no think-time limit), not_in_turn "
                "(only the seat in turn is timed), time_not_up (the decision is within its "
                "limit).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """A time fault (時間切れ) for the seat in turn, by the tournament's rule: a warning, a
        forced pass, or a points deduction (the table's referee, the head referee or an
        organiser, as the console's button)."""

        def fault(game: Game, data: dict[str, Any]) -> Response:
            outcome = services.record_time_fault(game, data["seat"], request.user, seq=data["seq"])
            body = {
                "created": outcome.created,
                "fault": fault_dict(outcome.fault),
                "message_en": outcome.message_en,
                "message_ja": outcome.message_ja,
                "game": _fresh(game),
            }
            code = status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK
            return Response(body, status=code)

        return game_write(request, game_id, TimeFaultInputSerializer, fault)
