"""`POST /api/games/<id>/confirm/`: confirm a finished game's result.

- an official of the tournament (not the one who recorded it) sends an empty body;
- on the recorder's device, a seated player sends `{"seat": n, "pin": "123456"}` — their engine
  seat (0-based) and the table's PIN from the table card. A wrong PIN counts against the table;
  after five the PIN stops working until the head referee resets it.

Only requests that carry a PIN count towards the `table-pin` rate (per user): a head referee
confirming a whole round with their own account is never throttled as a PIN guesser. A wrong PIN
also counts against the client's address (`failed-credentials`, config/throttling.py); past that
rate the address's PINs get 429 before they are checked.

The PIN is never part of any answer. Device tokens are held to their scope (`require_scope`).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import throttling
from games import services
from games.api import error_response, visible_game
from games.auth import DeviceTokenAuthentication, require_scope
from games.models import Game


class ConfirmRequestSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        min_value=0,
        max_value=4,
        required=False,
        help_text="A player's confirmation: their 0-based engine seat in this game (its "
        "`seating` says which table position plays it). "
        "Omit (with pin) for an official's confirmation with their own account.",
    )
    pin = serializers.RegexField(
        r"^[0-9]{6}$",
        required=False,
        write_only=True,
        help_text="The table's 6-digit PIN printed on the table card (with seat).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("seat" in attrs) != ("pin" in attrs):
            raise serializers.ValidationError("Send both seat and pin, or neither.")
        return attrs


class ConfirmedSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    confirmed_at = serializers.DateTimeField()
    confirmed_by = serializers.CharField(
        allow_null=True, help_text="Username of the account that confirmed (the device's user)."
    )
    confirmed_by_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat of the player who confirmed with the PIN, if so."
    )


class ConfirmErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="Stable code: bad_request, permission_denied, not_finished, "
        "already_confirmed, wrong_pin, pin_locked, no_such_seat."
    )
    message_en = serializers.CharField()
    message_ja = serializers.CharField()


# Refusals that say the game's or table's state is in the way, not the request.
CONFLICTS = frozenset({"not_finished", "already_confirmed", "pin_locked"})


class GameConfirmView(APIView):
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = throttling.pin_throttles()
    throttle_scope = "table-pin"  # requests with a short PIN (API_THROTTLE_TABLE_PIN)

    @extend_schema(
        operation_id="games_confirm_create",
        request=ConfirmRequestSerializer,
        responses={
            200: ConfirmedSerializer,
            400: ConfirmErrorSerializer,
            403: OpenApiResponse(
                ConfirmErrorSerializer,
                description="permission_denied (not an official of the table, or the recorder "
                "confirming their own recording), or wrong_pin.",
            ),
            404: OpenApiResponse(description="No such game, or one you may not see."),
            409: OpenApiResponse(
                ConfirmErrorSerializer,
                description="not_finished, already_confirmed, pin_locked (the head referee "
                "confirms now).",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Confirm a finished game: an official with an empty body, or a seated player with
        their seat and the table's PIN (on the device of the table's referee)."""
        try:
            game = Game.objects.select_related("table__round__stage__tournament").get(pk=game_id)
        except Game.DoesNotExist:
            raise Http404("No such game.") from None
        serializer = ConfirmRequestSerializer(data=request.data or {})
        try:
            require_scope(request.auth, game_id=game.pk)
            if not serializer.is_valid():
                visible_game(request, game.pk)
                return error_response(
                    "bad_request",
                    'Send nothing (an official confirms), or {"seat": n, "pin": "123456"}.',
                    "本文なし(審判の確定)、または seat と6桁の pin を送ってください。",
                    status.HTTP_400_BAD_REQUEST,
                )
            data = serializer.validated_data
            if "seat" in data:
                throttling.refuse_if_failing(request)
                game = services.confirm_game_by_player(
                    game, request.user, data["seat"], data["pin"]
                )
            else:
                game = services.confirm_game(game, request.user)
        except PermissionDenied as denied:
            visible_game(request, game.pk)  # 404 for a game the user may not even see
            return error_response(
                "permission_denied",
                str(denied) or "You may not confirm this game.",
                "この結果を確定する権限がありません。",
                status.HTTP_403_FORBIDDEN,
            )
        except services.GameError as error:
            http: int
            if error.code in CONFLICTS:
                http = status.HTTP_409_CONFLICT
            elif error.code == "wrong_pin":
                throttling.count_failed_credentials(request)
                http = status.HTTP_403_FORBIDDEN
            else:
                http = status.HTTP_400_BAD_REQUEST
            return error_response(error.code, error.message_en, error.message_ja, http)
        return Response(
            {
                "game": game.pk,
                "status": game.status,
                "confirmed_at": game.confirmed_at,
                "confirmed_by": game.confirmed_by.get_username() if game.confirmed_by else None,
                "confirmed_by_seat": game.confirmed_by_seat,
            }
        )
