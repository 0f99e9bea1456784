"""REST API for a tournament's officials (issue #12), the same services as the officials page:

- `GET/POST /api/tournaments/<slug>/officials/`: list (organisers and the head referee); add a
  new person (`display_name`, `email`, `role`) or an existing user (`username`, `role`);
- `POST /api/tournaments/<slug>/officials/<id>/revoke/`;
- `POST /api/tournaments/<slug>/officials/<id>/sign-in-link/` and `…/pin/`: a one-time sign-in
  link or PIN, whose secret is in this answer only;
- `POST /api/rounds/<id>/referees/`: one referee for several tables of a round.

Writes are the tournament's organisers' (checked per object by the services). A table's scorer
token (`DeviceToken.table_number`) never manages anything, even though its user is the
organiser who issued it; other device tokens only within their tournament.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.http import urlencode
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.throttling import throttles_with_scope
from games.auth import DeviceTokenAuthentication, require_management_scope
from tournaments import services
from tournaments.api import _domain_error
from tournaments.models import Official, Round, Tournament
from tournaments.permissions import is_head_referee
from tournaments.serializers import ErrorSerializer

AUTH = [DeviceTokenAuthentication, SessionAuthentication]


def managed_tournament(request: Request, slug: str) -> Tournament:
    """Organisers and the head referee; to anyone else the tournament's officials are not found."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_head_referee(request.user, tournament):
        raise Http404("No such tournament.")
    require_management_scope(request.auth, tournament)
    return tournament


class OfficialSerializer(serializers.ModelSerializer[Official]):
    user_id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    name = serializers.SerializerMethodField()
    email = serializers.CharField(source="user.email", read_only=True)
    last_login = serializers.DateTimeField(source="user.last_login", read_only=True)

    class Meta:
        model = Official
        fields = ["id", "user_id", "username", "name", "email", "role", "last_login"]

    def get_name(self, official: Official) -> str:
        return official.user.get_full_name() or official.user.get_username()


class OfficialCreateSerializer(serializers.Serializer[Any]):
    """A new person (`display_name`, optional `email`) or an existing user (`username`)."""

    display_name = serializers.CharField(max_length=150, required=False, default="")
    email = serializers.EmailField(required=False, default="")
    username = serializers.CharField(max_length=150, required=False, default="")
    role = serializers.ChoiceField(choices=Official.Role.choices)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs["display_name"].strip()) == bool(attrs["username"].strip()):
            raise serializers.ValidationError("Give either display_name or username.")
        return attrs


class SignInCodeRequestSerializer(serializers.Serializer[Any]):
    hours = serializers.IntegerField(min_value=1, max_value=168, default=services.SIGN_IN_HOURS)
    revoke_older = serializers.BooleanField(default=True)


class SignInLinkSerializer(serializers.Serializer[Any]):
    """A sign-in link: `url` holds the secret, shown in this answer only."""

    username = serializers.CharField()
    url = serializers.URLField()
    expires_at = serializers.DateTimeField()


class PinCardSerializer(serializers.Serializer[Any]):
    """A PIN card's content: the 8-digit `pin` is in this answer only."""

    username = serializers.CharField()
    pin = serializers.CharField()
    sign_in_url = serializers.URLField()
    expires_at = serializers.DateTimeField()


class RefereesRequestSerializer(serializers.Serializer[Any]):
    referee = serializers.IntegerField(
        allow_null=True, help_text="The referee's user id (`user_id`), or null to clear."
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, help_text="Table numbers."
    )


class AssignedTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    referee = serializers.IntegerField(source="referee_id", allow_null=True)


def _officials(tournament: Tournament) -> QuerySet[Official]:
    return tournament.officials.select_related("user").order_by("role", "user__username")


class OfficialListView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_officials_list", responses=OfficialSerializer(many=True)
    )
    def get(self, request: Request, slug: str) -> Response:
        """The tournament's officials (organisers and the head referee may list them)."""
        tournament = managed_tournament(request, slug)
        return Response(OfficialSerializer(_officials(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_officials_create",
        request=OfficialCreateSerializer,
        responses={201: OfficialSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Add an official: a new person (a user without a password, with a generated sign-in
        name) or an existing user by sign-in name (organisers only)."""
        tournament = managed_tournament(request, slug)
        body = OfficialCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if data["username"].strip():
                official = services.add_official_user(
                    tournament, request.user, username=data["username"], role=data["role"]
                )
            else:
                official = services.add_official_person(
                    tournament,
                    request.user,
                    display_name=data["display_name"],
                    email=data["email"],
                    role=data["role"],
                )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(OfficialSerializer(official).data, status=status.HTTP_201_CREATED)


def _official(request: Request, slug: str, official_id: int) -> Official:
    tournament = managed_tournament(request, slug)
    return get_object_or_404(_officials(tournament), pk=official_id)


class OfficialRevokeView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_officials_revoke",
        request=None,
        responses={204: None, 400: ErrorSerializer},
    )
    def post(self, request: Request, slug: str, official_id: int) -> Response:
        """Take the role away; their tables in open rounds lose them, and without any role left
        their device tokens and sign-in codes for the tournament stop working."""
        official = _official(request, slug, official_id)
        try:
            services.revoke_official(official, request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _no_store(response: Response) -> Response:
    response["Cache-Control"] = "no-store"
    return response


class OfficialSignInLinkView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles_with_scope()
    throttle_scope = "credentials"  # API_THROTTLE_CREDENTIALS

    @extend_schema(
        operation_id="tournaments_officials_sign_in_link",
        request=SignInCodeRequestSerializer,
        responses={201: SignInLinkSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, slug: str, official_id: int) -> Response:
        """A one-time sign-in link for the official; the URL (its secret) is in this answer only."""
        official = _official(request, slug, official_id)
        body = SignInCodeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            code, secret = services.issue_sign_in_link(
                official.tournament, request.user, official.user, **body.validated_data
            )
        except services.DomainError as error:
            return _domain_error(error)
        url = request.build_absolute_uri(reverse("sign-in-link", args=[secret]))
        data = {"username": official.user.username, "url": url, "expires_at": code.expires_at}
        return _no_store(Response(SignInLinkSerializer(data).data, status=201))


class OfficialPinView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles_with_scope()
    throttle_scope = "credentials"  # API_THROTTLE_CREDENTIALS

    @extend_schema(
        operation_id="tournaments_officials_pin",
        request=SignInCodeRequestSerializer,
        responses={201: PinCardSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request, slug: str, official_id: int) -> Response:
        """A PIN card for the official: sign-in name and an 8-digit PIN (in this answer only),
        entered at `sign_in_url`."""
        official = _official(request, slug, official_id)
        body = SignInCodeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            code, pin = services.issue_pin_card(
                official.tournament, request.user, official.user, **body.validated_data
            )
        except services.DomainError as error:
            return _domain_error(error)
        username = official.user.username
        url = request.build_absolute_uri(
            reverse("sign-in-pin") + "?" + urlencode({"user": username})
        )
        data = {"username": username, "pin": pin, "sign_in_url": url, "expires_at": code.expires_at}
        return _no_store(Response(PinCardSerializer(data).data, status=201))


class RoundRefereesView(APIView):
    authentication_classes = AUTH
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="rounds_referees_assign",
        request=RefereesRequestSerializer,
        responses={200: AssignedTableSerializer(many=True), 400: ErrorSerializer},
    )
    def post(self, request: Request, round_id: int) -> Response:
        """Give several tables of the round (by number) to one referee, or clear them."""
        round_ = get_object_or_404(Round.objects.select_related("stage__tournament"), pk=round_id)
        tournament = round_.stage.tournament
        if not is_head_referee(request.user, tournament):
            raise Http404("No such round.")
        require_management_scope(request.auth, tournament)
        body = RefereesRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        numbers = set(body.validated_data["tables"])
        tables = list(round_.tables.filter(number__in=numbers).order_by("number"))
        if len(tables) != len(numbers):
            missing = sorted(numbers - {t.number for t in tables})
            return _domain_error(
                services.DomainError(
                    f"The round has no table {missing}.",
                    f"この回戦に卓 {missing} はありません。",
                    code="no_such_table",
                )
            )
        referee_id = body.validated_data["referee"]
        referee = None
        if referee_id is not None:
            referee = User.objects.filter(pk=referee_id).first()
            if referee is None:
                return _domain_error(
                    services.DomainError(
                        "No such user.", "利用者が見つかりません。", code="not_referee"
                    )
                )
        try:
            services.assign_referees(round_, request.user, referee, tables)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(AssignedTableSerializer(tables, many=True).data)


urlpatterns = [
    path("tournaments/<slug:slug>/officials/", OfficialListView.as_view(), name="api-officials"),
    path(
        "tournaments/<slug:slug>/officials/<int:official_id>/revoke/",
        OfficialRevokeView.as_view(),
        name="api-official-revoke",
    ),
    path(
        "tournaments/<slug:slug>/officials/<int:official_id>/sign-in-link/",
        OfficialSignInLinkView.as_view(),
        name="api-official-sign-in-link",
    ),
    path(
        "tournaments/<slug:slug>/officials/<int:official_id>/pin/",
        OfficialPinView.as_view(),
        name="api-official-pin",
    ),
    path("rounds/<int:round_id>/referees/", RoundRefereesView.as_view(), name="api-round-referees"),
]
