"""REST API for device tokens (issue #12), over `games.devices` like the devices page:

- `GET /api/tournaments/<slug>/devices/`: the tournament's tokens (organisers and the head
  referee), or the caller's own tokens there (any other official);
- `POST /api/tournaments/<slug>/devices/`: a token for a referee (`referee`: user id), for a
  table number (`table_number`: a scorer device), or with neither for the caller's own device;
  the raw `key` is in this answer only, with `qr_text` (`https://host/api/#token=…`);
- `POST /api/devices/<id>/revoke/`.

A table's scorer token never manages tokens (`games.auth.require_management_scope`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.throttling import throttles_with_scope
from games import devices
from games.auth import DeviceTokenAuthentication, require_management_scope
from games.models import DeviceToken
from tournaments import services
from tournaments.api import _domain_error
from tournaments.models import Official, Tournament
from tournaments.permissions import has_role, is_head_referee, is_organiser
from tournaments.serializers import ErrorSerializer

AUTH = [DeviceTokenAuthentication, SessionAuthentication]


class DeviceTokenSerializer(serializers.ModelSerializer[DeviceToken]):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    user = serializers.CharField(source="user.username", read_only=True)
    issued_by = serializers.CharField(
        source="issued_by.username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = DeviceToken
        fields = [
            "id",
            "name",
            "prefix",
            "user",
            "tournament",
            "table_number",
            "issued_by",
            "created_at",
            "last_used_at",
            "revoked_at",
        ]


class DeviceIssueSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=devices.NAME_MAX)
    referee = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="A referee's user id."
    )
    table_number = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=999
    )


class DeviceIssuedSerializer(DeviceTokenSerializer):
    """A new token: `key` is shown in this answer only."""

    key = serializers.CharField(read_only=True)
    qr_text = serializers.CharField(read_only=True)

    class Meta(DeviceTokenSerializer.Meta):
        fields = [*DeviceTokenSerializer.Meta.fields, "key", "qr_text"]


def _official_tournament(request: Request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not (
        is_organiser(request.user, tournament)
        or has_role(request.user, tournament, *Official.Role.values)
    ):
        raise Http404("No such tournament.")
    require_management_scope(request.auth, tournament)
    return tournament


class TournamentDevicesView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles_with_scope()
    throttle_scope = "credentials"  # issuing tokens (API_THROTTLE_CREDENTIALS)

    @extend_schema(
        operation_id="tournaments_devices_list", responses=DeviceTokenSerializer(many=True)
    )
    def get(self, request: Request, slug: str) -> Response:
        """Every token of the tournament (organisers, head referee) or the caller's own."""
        tournament = _official_tournament(request, slug)
        tokens = devices.tournament_devices(tournament)
        if not is_head_referee(request.user, tournament):
            tokens = tokens.filter(user_id=int(request.user.pk or 0), table_number__isnull=True)
        return Response(DeviceTokenSerializer(tokens, many=True).data)

    @extend_schema(
        operation_id="tournaments_devices_create",
        request=DeviceIssueSerializer,
        responses={201: DeviceIssuedSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Issue a token for a referee, a table number, or (neither) the caller's own device."""
        tournament = _official_tournament(request, slug)
        body = DeviceIssueSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if data["referee"] is None and data["table_number"] is None:
                token, raw = devices.issue_own_device(tournament, request.user, name=data["name"])
            else:
                referee = None
                if data["referee"] is not None:
                    referee = User.objects.filter(pk=data["referee"]).first()
                    if referee is None:
                        raise services.DomainError(
                            "No such user.", "利用者が見つかりません。", code="not_official"
                        )
                token, raw = devices.issue_device(
                    tournament,
                    request.user,
                    name=data["name"],
                    referee=referee,
                    table_number=data["table_number"],
                )
        except services.DomainError as error:
            return _domain_error(error)
        token.key = raw  # type: ignore[attr-defined]
        token.qr_text = devices.device_qr_text(  # type: ignore[attr-defined]
            request.build_absolute_uri(reverse("api-root")), raw
        )
        response = Response(DeviceIssuedSerializer(token).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class DeviceRevokeView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="devices_revoke",
        request=None,
        responses={200: DeviceTokenSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, token_id: int) -> Response:
        """Revoke a token: the device gets 401 from now on."""
        token = get_object_or_404(
            DeviceToken.objects.select_related("user", "tournament"), pk=token_id
        )
        if not devices.can_revoke_device(request.user, token):
            raise Http404("No such device.")
        if isinstance(request.auth, DeviceToken):
            if token.tournament is not None:
                require_management_scope(request.auth, token.tournament)
            elif request.auth.table_number is not None:
                raise PermissionDenied("This device's token cannot manage devices.")
        try:
            token = devices.revoke_device(token, request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(DeviceTokenSerializer(token).data)


urlpatterns = [
    path("tournaments/<slug:slug>/devices/", TournamentDevicesView.as_view(), name="api-devices"),
    path("devices/<int:token_id>/revoke/", DeviceRevokeView.as_view(), name="api-device-revoke"),
]
