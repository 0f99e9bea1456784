"""Read-only queries for tournament pages and the API."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournaments.models import Entry, Tournament


def public_tournaments() -> QuerySet[Tournament]:
    """Tournaments the public may see (drafts stay with their organisers), with entry counts."""
    return (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.DROPPED)))
        .order_by("-starts_on", "name")
    )


def tournament_entries(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player").order_by("number")
