"""The public replay viewer of a finished game (`games.replay`), and its embeddable twin.

Public like the live table page: any table the visitor may see (`visible_tables`). A game in
play shows nothing of itself here and points to the live page; a void game says so. htmx steps
swap only the viewer's partial, and push the move's address, so every position can be shared.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from games.models import Game
from games.public import duplicate_embargo
from games.replay import REPLAYABLE, replay_position
from games.views import HtmxHttpRequest
from tournaments.selectors import visible_tables


@require_GET
def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _serve(request, game_id, embed=False)


@require_GET
@xframe_options_exempt  # meant to be framed by club and venue sites, like the embedded board
def replay_embed(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _serve(request, game_id, embed=True)


def _serve(request: HtmxHttpRequest, game_id: int, *, embed: bool) -> HttpResponse:
    tables = visible_tables(request.user).values("pk")
    game = get_object_or_404(
        Game.objects.select_related("table__round__stage__tournament"),
        pk=game_id,
        table__in=tables,
    )
    page = "games/replay_embed.html" if embed else "games/replay.html"
    here = reverse("games:replay_embed" if embed else "games:replay", args=[game.pk])
    ctx: dict[str, Any] = {
        "game": game,
        "table": game.table,
        "embed": embed,
        "here": here,
        "live_url": reverse("games:live", args=[game.table_id]),
        "full_url": reverse("games:replay", args=[game.pk]),
    }
    # A duplicate deal's moves would show the cards of its group's other tables.
    ctx["duplicate_embargo"] = duplicate_embargo(game)
    if game.status in REPLAYABLE and game.mode != Game.Mode.QUICK and not ctx["duplicate_embargo"]:
        position = replay_position(game, request.GET.get("move", 0))
        ctx["position"] = position
        ctx["steps"] = _steps(here, position["number"], position["total"])
        if request.htmx:  # a step: the board alone, the same partial for page and embed
            page = "games/replay.html#replay-board"
    response = render(request, page, ctx)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _steps(here: str, number: int, total: int) -> dict[str, str | None]:
    """The four step links' addresses (None where the step goes nowhere)."""

    def at(n: int) -> str:
        return f"{here}?move={n}"

    return {
        "first": at(0) if number > 0 else None,
        "back": at(number - 1) if number > 0 else None,
        "forward": at(number + 1) if number < total else None,
        "last": at(total) if number < total else None,
    }
