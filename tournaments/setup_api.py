"""API for setting a tournament up (issue #12), parity with the organiser pages: stages
(create, edit, delete, advancement preview, playoffs) as a mixin of `api.StageViewSet`,
tournament settings as a mixin of `api.TournamentViewSet`, and leagues and seasons (public
lists, staff writes). Writes go through `tournaments.services`, which check the actor."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ApiError, error_body
from tournaments import services
from tournaments.models import League, Season, Tournament
from tournaments.permissions import can_create_tournament
from tournaments.selectors import organised_tournaments, stage_participants
from tournaments.serializers import ErrorSerializer
from tournaments.setup_serializers import (
    AdvancementPreviewSerializer,
    LeagueSerializer,
    PlayoffRequestSerializer,
    SeasonSerializer,
    SeedsSerializer,
    SettingsChangedSerializer,
    SettingsErrorSerializer,
    StageCreateSerializer,
    StageSetupSerializer,
    StageUpdateSerializer,
    TournamentSettingsSerializer,
)


def domain_error(error: services.DomainError) -> Response:
    """A service's refusal as the tournaments API answers it (400): the code and messages,
    the form field it concerns, the games that keep a round from a step."""
    body = error_body(error.code, error.message_en, error.message_ja)
    field = getattr(error, "field", "")
    if field:
        body["field"] = field
    if isinstance(error, services.RoundBlocked):
        body["blockers"] = [
            {
                "table": b.table,
                "set_number": b.set_number,
                "game_number": b.game_number,
                "code": b.code,
                "game_id": b.game_id,
                "message_en": b.message_en,
                "message_ja": b.message_ja,
            }
            for b in error.blockers
        ]
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


class StageSetupMixin:
    """Create, edit and delete stages; preview advancement; create a playoff."""

    get_object: Any

    @extend_schema(
        operation_id="stages_create",
        request=StageCreateSerializer,
        responses={201: StageSetupSerializer, 400: ErrorSerializer},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Add a cut or final after the last stage (organisers of the tournament)."""
        body = StageCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        tournament = get_object_or_404(
            organised_tournaments(request.user), slug=data.pop("tournament")
        )
        try:
            stage = services.add_stage(tournament, request.user, **data)
        except services.DomainError as error:
            return domain_error(error)
        return Response(StageSetupSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="stages_partial_update",
        request=StageUpdateSerializer,
        responses={200: StageSetupSerializer, 400: ErrorSerializer},
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Edit a stage: its name and `tournament_order` (how the tournament's order places its
        entrants) any time; kind, rule out of it and carry-over before it has a round."""
        stage = self.get_object()
        body = StageUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            services.update_stage(stage, request.user, **body.validated_data)
        except services.DomainError as error:
            return domain_error(error)
        stage.refresh_from_db()
        return Response(StageSetupSerializer(stage).data)

    @extend_schema(
        operation_id="stages_destroy", responses={204: None, 400: SettingsErrorSerializer}
    )
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete a stage with no round, no entrant and nothing after it."""
        try:
            services.delete_stage(self.get_object(), request.user)
        except services.DomainError as error:
            return domain_error(error)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="stages_advancement_preview",
        responses={200: AdvancementPreviewSerializer},
    )
    @action(detail=True, methods=["get"], url_path="advancement-preview")
    def advancement_preview(self, request: Request, pk: str) -> Response:
        """Who would advance now on confirmed results, ties at the cut line flagged (for the
        last stage: the final places, ordered by any playoff). Organisers only."""
        preview = services.preview_advancement(self.get_object(), request.user)
        return Response(AdvancementPreviewSerializer(preview).data)

    @extend_schema(
        operation_id="stages_seeds",
        request=SeedsSerializer,
        responses={200: SeedsSerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["put"])
    def seeds(self, request: Request, pk: str) -> Response:
        """Set the entrants seeded straight into the stage (they skip the earlier stages and
        join it when the previous stage advances). Refused for the first stage, playoffs and
        once the previous stage has advanced."""
        body = SeedsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            seeded = services.seed_entries(
                self.get_object(), request.user, body.validated_data["entries"]
            )
        except services.DomainError as error:
            return domain_error(error)
        return Response({"entries": [e.number for e in seeded]})

    @extend_schema(
        operation_id="stages_playoff",
        request=PlayoffRequestSerializer,
        responses={201: StageSetupSerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def playoff(self, request: Request, pk: str) -> Response:
        """Create a tie-break playoff (順位決定戦) of the stage's tied entrants (numbers)."""
        stage = self.get_object()
        body = PlayoffRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        by_number = {e.number: e.pk for e in stage_participants(stage)}
        unknown = [n for n in body.validated_data["entries"] if n not in by_number]
        if unknown:
            raise ValidationError({"entries": [f"not entrants of this stage: {unknown}"]})
        try:
            playoff = services.create_playoff(
                stage,
                request.user,
                [by_number[n] for n in body.validated_data["entries"]],
                name=body.validated_data["name"],
            )
        except services.DomainError as error:
            return domain_error(error)
        return Response(StageSetupSerializer(playoff).data, status=status.HTTP_201_CREATED)


class TournamentSettingsMixin:
    """PATCH a tournament's settings, with the same refusals as the settings page."""

    get_object: Any

    @extend_schema(
        operation_id="tournaments_partial_update",
        request=TournamentSettingsSerializer,
        responses={200: SettingsChangedSerializer, 400: SettingsErrorSerializer},
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change settings, all or nothing: a refused field comes back under `fields` with
        its code and message; a points-table change after games rescores every result."""
        tournament: Tournament = self.get_object()
        body = TournamentSettingsSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        try:
            change = services.update_tournament_settings(
                tournament, request.user, **body.validated_data
            )
        except services.SettingsRefused as refused:
            fields = {
                field: {"code": e.code, "message_en": e.message_en, "message_ja": e.message_ja}
                for field, e in refused.errors.items()
            }
            answer = error_body(
                refused.code, refused.message_en, refused.message_ja, fields, fields=fields
            )
            return Response(answer, status=status.HTTP_400_BAD_REQUEST)
        except services.DomainError as error:
            return domain_error(error)
        return Response(
            {
                "changed": {
                    field: {"old": services._plain(old), "new": services._plain(new)}
                    for field, (old, new) in change.changed.items()
                },
                "notices": [
                    {"code": n.code, "message_en": n.message_en, "message_ja": n.message_ja}
                    for n in change.notices
                ],
                "rescored": change.rescored,
            }
        )


@contextmanager
def _refusals() -> Iterator[None]:
    """A service's refusal as a 400 with the usual error JSON."""
    try:
        yield
    except services.DomainError as error:
        raise ApiError(error.code, error.message_en, error.message_ja) from error


class StaffWritesOnly(permissions.BasePermission):
    """Anyone may read leagues and seasons; staff (who may create tournaments) write."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in permissions.SAFE_METHODS or can_create_tournament(request.user)


class LeagueViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[League],
):
    """Leagues with their seasons."""

    serializer_class = LeagueSerializer
    permission_classes = [StaffWritesOnly]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[League]:
        return League.objects.prefetch_related("seasons").order_by("name")

    def perform_create(self, serializer: Any) -> None:
        with _refusals():
            serializer.instance = services.create_league(
                self.request.user, **serializer.validated_data
            )

    def perform_update(self, serializer: Any) -> None:
        with _refusals():
            services.update_league(
                serializer.instance, self.request.user, **serializer.validated_data
            )


class SeasonViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Season],
):
    """Seasons with their published tournaments and a link to the season standings."""

    serializer_class = SeasonSerializer
    permission_classes = [StaffWritesOnly]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.select_related("league").order_by("league__name", "-slug")

    def perform_create(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        league = data.pop("league")
        with _refusals():
            serializer.instance = services.create_season(league, self.request.user, **data)

    def perform_update(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        data.pop("league", None)  # a season stays in its league
        with _refusals():
            services.update_season(serializer.instance, self.request.user, **data)
