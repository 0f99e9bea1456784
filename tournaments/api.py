"""REST API: a read-only public tier over published data, writes for the tournament's organisers.

Every `get_queryset()` is scoped to what the requesting user may see (list endpoints never run
object permissions); writes go through `tournaments.services`, which check the actor again.
"""

from __future__ import annotations

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

from tournaments import services
from tournaments.advancement import AdvancementTie
from tournaments.models import Entry, Round, Stage, Table, Tournament
from tournaments.permissions import is_organiser
from tournaments.ranking import stage_ranking
from tournaments.selectors import (
    organised_tournaments,
    stage_participants,
    tournament_entries,
    visible_rounds,
    visible_tables,
    visible_tournaments,
)
from tournaments.serializers import (
    AdvanceRequestSerializer,
    CheckInSerializer,
    DrawRequestSerializer,
    EntryCreateSerializer,
    EntryDetailSerializer,
    EntrySerializer,
    ErrorSerializer,
    RoundSerializer,
    StageSerializer,
    TableSerializer,
    TournamentSerializer,
)


def tournament_of(obj: object) -> Tournament:
    if isinstance(obj, Tournament):
        return obj
    if isinstance(obj, Stage | Entry):
        return obj.tournament
    if isinstance(obj, Round):
        return obj.stage.tournament
    if isinstance(obj, Table):
        return obj.round.stage.tournament
    raise TypeError(f"no tournament for {obj!r}")


class OrganiserWritesOnly(permissions.BasePermission):
    """Anyone may read what the queryset shows; only the tournament's organisers may write."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return is_organiser(request.user, tournament_of(obj))


def _domain_error(error: Exception) -> Response:
    body: dict[str, Any] = {"detail": str(error)}
    if isinstance(error, services.DomainError):
        body |= {"code": error.code, "message_en": error.message_en, "message_ja": error.message_ja}
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


class TournamentViewSet(viewsets.ReadOnlyModelViewSet[Tournament]):
    serializer_class = TournamentSerializer
    permission_classes = [OrganiserWritesOnly]
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Tournament]:
        # Scoped here, not only in object permissions: list endpoints never run those.
        return visible_tournaments(self.request.user)

    @extend_schema(responses=EntrySerializer(many=True))
    @action(detail=True, pagination_class=None)
    def entries(self, request: Request, slug: str) -> Response:
        """Every entry, in entry-number order (a field is at most a few hundred players)."""
        tournament = self.get_object()
        return Response(EntrySerializer(tournament_entries(tournament), many=True).data)


class StageViewSet(viewsets.ReadOnlyModelViewSet[Stage]):
    serializer_class = StageSerializer
    permission_classes = [OrganiserWritesOnly]

    def get_queryset(self) -> QuerySet[Stage]:
        return (
            Stage.objects.filter(tournament__in=visible_tournaments(self.request.user).values("pk"))
            .select_related("tournament")
            .order_by("tournament", "order")
        )

    @extend_schema(
        request=DrawRequestSerializer,
        responses={201: RoundSerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, pk: str) -> Response:
        """Draw the stage's next round as a draft (organisers of the tournament only)."""
        stage = self.get_object()
        body = DrawRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            round_ = services.draw_round(
                stage, request.user, override_reason=body.validated_data.get("override_reason", "")
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(RoundSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=AdvanceRequestSerializer,
        responses={200: EntryDetailSerializer(many=True), 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def advance(self, request: Request, pk: str) -> Response:
        """Advance the stage's qualifiers (and seeded entrants) into the next stage."""
        stage = self.get_object()
        body = AdvanceRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        by_number = {e.number: e.pk for e in stage_participants(stage)}
        unknown = [n for n in body.validated_data["tie_break"] if n not in by_number]
        if unknown:
            raise ValidationError({"tie_break": [f"not entrants of this stage: {unknown}"]})
        try:
            places = services.advance_stage(
                stage,
                request.user,
                stage_ranking(stage).keys,
                tie_break=[by_number[n] for n in body.validated_data["tie_break"]],
            )
        except (AdvancementTie, services.DomainError) as error:
            return _domain_error(error)
        entries = [place.entry for place in places]
        return Response(EntryDetailSerializer(entries, many=True).data)


class RoundViewSet(viewsets.ReadOnlyModelViewSet[Round]):
    serializer_class = RoundSerializer
    permission_classes = [OrganiserWritesOnly]

    def get_queryset(self) -> QuerySet[Round]:
        return visible_rounds(self.request.user)

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        """Publish the draw and the SHA-256 commitment of the round's seed."""
        try:
            round_ = services.publish_round(self.get_object(), request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(RoundSerializer(round_).data)

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def complete(self, request: Request, pk: str) -> Response:
        """Declare the round's results final (every game confirmed, forfeited or void); a
        refusal lists the `blockers`."""
        try:
            round_ = services.complete_round(self.get_object(), request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(RoundSerializer(round_).data)

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def reveal(self, request: Request, pk: str) -> Response:
        """Reveal the round's seed (completing the round first when it is still in play); a
        refusal lists the games that block it (`blockers`)."""
        try:
            round_ = services.reveal_round_seed(self.get_object(), request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(RoundSerializer(round_).data)

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        """Close a revealed round: no result of it may change any more."""
        try:
            round_ = services.close_round(self.get_object(), request.user)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(RoundSerializer(round_).data)


class TableViewSet(viewsets.ReadOnlyModelViewSet[Table]):
    """Tables with their seats: published rounds for everyone, plus a referee's own tables."""

    serializer_class = TableSerializer
    permission_classes = [OrganiserWritesOnly]

    def get_queryset(self) -> QuerySet[Table]:
        return visible_tables(self.request.user)


class EntryViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Entry],
):
    permission_classes = [OrganiserWritesOnly]

    def get_queryset(self) -> QuerySet[Entry]:
        return (
            Entry.objects.filter(tournament__in=visible_tournaments(self.request.user).values("pk"))
            .select_related("tournament", "player")
            .order_by("tournament", "number")
        )

    def get_serializer_class(self) -> type[EntryDetailSerializer | EntryCreateSerializer]:
        return EntryCreateSerializer if self.action == "create" else EntryDetailSerializer

    @extend_schema(request=EntryCreateSerializer, responses={201: EntryDetailSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = EntryCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        # Only tournaments the user organises: others are "not found", as on the pages.
        tournament = get_object_or_404(organised_tournaments(request.user), slug=data["tournament"])
        try:
            entry = services.register_entry(
                tournament,
                request.user,
                display_name=data["display_name"],
                name_kana=data["name_kana"],
                number=data.get("number"),
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDetailSerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=CheckInSerializer, responses={200: EntryDetailSerializer, 400: ErrorSerializer}
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        """Check the entrant in (受付), or undo it with `{"checked_in": false}`."""
        entry = self.get_object()
        body = CheckInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            entry = services.check_in_entry(
                entry, request.user, checked_in=body.validated_data["checked_in"]
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDetailSerializer(entry).data)
