"""Public tournament pages (thin views over selectors)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.selectors import public_tournaments, tournament_entries


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": public_tournaments()})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(public_tournaments(), slug=slug)
    return render(
        request,
        "tournaments/detail.html",
        {"tournament": tournament, "entries": tournament_entries(tournament)},
    )
