"""Fetch-and-authorise for referee pages. The console itself (issue #6) is `games.views`,
mounted under the `referee` namespace by `games.urls_referee` (tournaments never imports games).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments.models import Table
from tournaments.permissions import can_view_table


def get_table_for_referee(request: HttpRequest, table_id: int) -> Table:
    """Fetch and authorise: the assigned referee, the head referee or an organiser."""
    table = get_object_or_404(
        Table.objects.select_related("round__stage__tournament", "referee"), pk=table_id
    )
    if not can_view_table(request.user, table):
        raise PermissionDenied(
            _("This table belongs to another referee: ask the head referee to assign it to you.")
        )
    return table
