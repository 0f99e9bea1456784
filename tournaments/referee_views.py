"""The referee's table page (審判用): the seats and players of one table.

Issue #6 grows it into the referee console; its URL name `referee:table` stays.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.models import Seat, Table
from tournaments.permissions import can_view_table


def get_table_for_referee(request: HttpRequest, table_id: int) -> Table:
    """Fetch and authorise: the assigned referee, the head referee or an organiser."""
    table = get_object_or_404(
        Table.objects.select_related("round__stage__tournament", "referee"), pk=table_id
    )
    if not can_view_table(request.user, table):
        raise PermissionDenied("Only this table's referee, the head referee or an organiser.")
    return table


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_table_for_referee(request, table_id)
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    tournament = table.round.stage.tournament
    return render(
        request,
        "tournaments/referee_table.html",
        {"table": table, "round": table.round, "tournament": tournament, "seats": seats},
    )
