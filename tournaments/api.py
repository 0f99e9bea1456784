"""Read-only public API over published tournaments."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Tournament
from tournaments.selectors import public_tournaments, tournament_entries
from tournaments.serializers import EntrySerializer, TournamentSerializer


class TournamentViewSet(viewsets.ReadOnlyModelViewSet[Tournament]):
    serializer_class = TournamentSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"

    def get_queryset(self):  # type: ignore[no-untyped-def]
        # Scoped here, not only in object permissions: list endpoints never run those.
        return public_tournaments()

    @extend_schema(responses=EntrySerializer(many=True))
    @action(detail=True, pagination_class=None)
    def entries(self, request: Request, slug: str) -> Response:
        """Every entry, in entry-number order (a field is at most a few hundred players)."""
        tournament = self.get_object()
        return Response(EntrySerializer(tournament_entries(tournament), many=True).data)
