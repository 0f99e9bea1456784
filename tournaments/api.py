"""REST API: a read-only public tier over published data, writes for the tournament's organisers.

Every `get_queryset()` is scoped to what the requesting user may see (list endpoints never run
object permissions); writes go through `tournaments.services`, which check the actor again.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import api_error, error_body
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
    CsvErrorSerializer,
    CsvImportRequestSerializer,
    CsvPreviewSerializer,
    CsvRowErrorSerializer,
    CsvRowSerializer,
    CsvTeamSerializer,
    CsvUploadSerializer,
    DrawRequestSerializer,
    EntryCreateSerializer,
    EntryDaySerializer,
    EntryDetailSerializer,
    EntryEditSerializer,
    EntrySerializer,
    ErrorSerializer,
    OptionalReasonSerializer,
    ReasonSerializer,
    RoundSerializer,
    StageSerializer,
    SubstituteRequestSerializer,
    TableSerializer,
    TournamentSerializer,
)
from tournaments.setup_api import StageSetupMixin, TournamentSettingsMixin, domain_error


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
        if request.method in permissions.SAFE_METHODS:
            return True
        # A table's scorer token acts as the organiser who issued it, for that table's moves
        # only: it never takes organiser steps (issue #12).
        if getattr(request.auth, "table_number", None) is not None:
            return False
        return bool(request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return is_organiser(request.user, tournament_of(obj))


def _domain_error(error: Exception) -> Response:
    """`domain_error`, and an advancement tie (not a service refusal) with the tied entries."""
    if isinstance(error, services.DomainError):
        return domain_error(error)
    tied = getattr(error, "tied", ())
    return api_error(
        "advancement_tie",
        str(error),
        "通過枠の境目で同順位の参加者がいます。タイブレークの順（プレーオフまたは抽選）を"
        "tie_break で指定してください。",
        status.HTTP_400_BAD_REQUEST,
        detail={"tied": list(tied), "places_left": getattr(error, "places_left", None)},
    )


class TournamentViewSet(TournamentSettingsMixin, viewsets.ReadOnlyModelViewSet[Tournament]):
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


class StageViewSet(StageSetupMixin, viewsets.ReadOnlyModelViewSet[Stage]):
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
                stage,
                request.user,
                override_reason=body.validated_data.get("override_reason", ""),
                duplicate_deals=body.validated_data.get("duplicate_deals", False),
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
    """Entrants: anyone reads the published ones; the tournament's organisers add walk-ins,
    edit, check in, withdraw, reinstate and substitute them, and import a CSV file (preview
    first, then import exactly the preview) — through the same services as the pages."""

    permission_classes = [OrganiserWritesOnly]

    def get_queryset(self) -> QuerySet[Entry]:
        return (
            Entry.objects.filter(tournament__in=visible_tournaments(self.request.user).values("pk"))
            .select_related("tournament", "player", "substitute_for", "team")
            .order_by("tournament", "number")
        )

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        classes: dict[str, type[serializers.BaseSerializer[Any]]] = {
            "create": EntryCreateSerializer,
            "partial_update": EntryEditSerializer,
            "csv_preview": CsvUploadSerializer,
            "csv_import": CsvImportRequestSerializer,
        }
        return classes.get(self.action, EntryDetailSerializer)

    def _organised(self, slug: str) -> Tournament:
        # Only tournaments the user organises: others are "not found", as on the pages.
        return get_object_or_404(organised_tournaments(self.request.user), slug=slug)

    @extend_schema(
        operation_id="entries_add",
        request=EntryCreateSerializer,
        responses={201: EntryDaySerializer, 400: ErrorSerializer},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Add one entrant (a walk-in): the next free number unless `number` is given;
        `checked_in` checks them in at once (they join the first stage's next draw)."""
        body = EntryCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        tournament = self._organised(data["tournament"])
        try:
            entry = services.add_walk_in(
                tournament,
                request.user,
                display_name=data["display_name"],
                name_kana=data["name_kana"],
                email=data["email"],
                number=data.get("number"),
                check_in=data["checked_in"],
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="entries_edit",
        request=EntryEditSerializer,
        responses={200: EntryDaySerializer, 400: ErrorSerializer},
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Correct an entrant's name, kana, e-mail or number (a taken number is refused)."""
        entry = self.get_object()
        body = EntryEditSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            entry = services.edit_entry(
                entry,
                request.user,
                display_name=data.get("display_name", entry.player.display_name),
                name_kana=data.get("name_kana", entry.player.name_kana),
                email=data.get("email", entry.player.email),
                number=data.get("number", entry.number),
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(entry).data)

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

    @extend_schema(
        operation_id="entries_withdraw",
        request=ReasonSerializer,
        responses={200: EntryDaySerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        """Withdraw the entrant (棄権) with a reason: later draws leave them out; their
        results so far stay."""
        entry = self.get_object()
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            entry = services.withdraw_entry(
                entry, request.user, reason=body.validated_data["reason"]
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(entry).data)

    @extend_schema(
        operation_id="entries_reinstate",
        request=OptionalReasonSerializer,
        responses={200: EntryDaySerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str) -> Response:
        """Undo a withdrawal: the entrant is seated again from the next draw."""
        entry = self.get_object()
        body = OptionalReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            entry = services.reinstate_entry(
                entry, request.user, reason=body.validated_data["reason"]
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(entry).data)

    @extend_schema(
        operation_id="entries_substitute",
        request=SubstituteRequestSerializer,
        responses={201: EntryDaySerializer, 400: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def substitute(self, request: Request, pk: str) -> Response:
        """A substitute (補欠) takes the entrant's place — and their seat, mid-round, in a round
        being played. Answers the substitute's entry."""
        entry = self.get_object()
        body = SubstituteRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        existing = None
        if "substitute_number" in data:
            existing = get_object_or_404(entry.tournament.entries, number=data["substitute_number"])
        try:
            new = services.substitute_entry(
                entry,
                request.user,
                substitute=existing,
                display_name=data["display_name"],
                name_kana=data["name_kana"],
                email=data["email"],
                reason=data["reason"],
            )
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(new).data, status=status.HTTP_201_CREATED)

    def _csv_error(self, error: services.CsvImportError) -> Response:
        rows = CsvRowErrorSerializer(error.errors, many=True).data
        body = error_body(
            error.code,
            error.message_en,
            error.message_ja,
            {"encoding": error.encoding, "errors": rows},
            encoding=error.encoding,
            errors=rows,
        )
        return Response(body, status=status.HTTP_400_BAD_REQUEST)

    @extend_schema(
        operation_id="entries_csv_preview",
        request={
            "multipart/form-data": CsvUploadSerializer,
            "application/json": CsvUploadSerializer,
        },
        responses={200: CsvPreviewSerializer, 400: CsvErrorSerializer},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="csv-preview",
        parser_classes=[MultiPartParser, FormParser, JSONParser],
    )
    def csv_preview(self, request: Request) -> Response:
        """What importing a CSV file would create (UTF-8 with or without BOM, or Shift_JIS):
        its rows with their numbers and the returning players their e-mails match, the
        encoding read, and a `token` that imports exactly this; or every problem by row and
        column. Nothing is saved."""
        body = CsvUploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        tournament = self._organised(data["tournament"])
        raw = data["file"].read() if "file" in data else data["text"]
        try:
            preview = services.preview_entries_csv(tournament, request.user, raw)
        except services.CsvImportError as error:
            return self._csv_error(error)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(
            {
                "encoding": preview.encoding,
                "rows": CsvRowSerializer(preview.rows, many=True).data,
                "teams": CsvTeamSerializer(preview.teams, many=True).data,
                "token": services.sign_csv_preview(tournament, preview),
            }
        )

    @extend_schema(
        operation_id="entries_csv_import",
        request=CsvImportRequestSerializer,
        responses={
            201: EntryDaySerializer(many=True),
            400: OpenApiResponse(CsvErrorSerializer, description="CSV errors or a refusal"),
        },
    )
    @action(detail=False, methods=["post"], url_path="csv-import")
    def csv_import(self, request: Request) -> Response:
        """Import exactly what a csv-preview showed (its `token`), validated again: all the
        rows or none."""
        body = CsvImportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tournament = self._organised(body.validated_data["tournament"])
        try:
            created = services.import_previewed_csv(
                tournament, request.user, body.validated_data["token"]
            )
        except services.CsvImportError as error:
            return self._csv_error(error)
        except services.DomainError as error:
            return _domain_error(error)
        return Response(EntryDaySerializer(created, many=True).data, status=status.HTTP_201_CREATED)
