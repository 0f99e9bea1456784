"""Following a round (organisers and head referees): the live progress dashboard with its
rulings at hand (confirm a finished game, unlock or renew a table's PIN), and the round's paper
— score sheets for a paper back-up and the results sheet for the wall.

The dashboard's grid is an htmx partial polled every few seconds (`round_progress` reads the
whole round in a fixed number of queries)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from config.language import in_active_language
from games import services as game_services
from games.models import Game
from tournaments.models import Official, Round, Table, Tournament
from tournaments.permissions import is_organiser
from tournaments.progress import progress_tables, results_sheet, round_progress
from tournaments.selectors import officiated_tournaments


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


POLL_SECONDS = 5


def _round_for_officials(request: HttpRequest, slug: str, round_id: int) -> Round:
    """The round, for an organiser or the head referee of its tournament. A referee of the
    tournament is told whom to ask; anyone else finds nothing."""
    tournament = officiated_tournaments(request.user).filter(slug=slug).first()
    if tournament is None:
        other = Tournament.objects.filter(slug=slug).first()
        if (
            other is not None
            and request.user.is_authenticated
            and Official.objects.filter(tournament=other, user=request.user).exists()
        ):
            raise PermissionDenied(
                _(
                    "This page is for the organisers and the head referee: ask the head referee "
                    "for the round's progress."
                )
            )
        raise Http404(_("No such tournament."))
    return get_object_or_404(
        Round.objects.select_related("stage__tournament"), pk=round_id, stage__tournament=tournament
    )


def _progress_context(request: HttpRequest, round_: Round, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": round_.stage.tournament,
        "round": round_,
        # The head referee follows the round here too, but the organiser pages (dashboard,
        # round page, completing the round) are the organisers': no links that 404 for them.
        "organises": is_organiser(request.user, round_.stage.tournament),
        "progress": round_progress(round_),
        "poll_seconds": POLL_SECONDS,
        "user_id": request.user.pk,
        **extra,
    }


def _render_progress(
    request: HtmxHttpRequest, round_: Round, status: int = 200, **extra: Any
) -> HttpResponse:
    template = "organiser/progress.html#grid" if request.htmx else "organiser/progress.html"
    response = render(request, template, _progress_context(request, round_, **extra), status=status)
    response["Vary"] = "HX-Request"
    return response


@login_required
@require_GET
def progress(request: HtmxHttpRequest, slug: str, round_id: int) -> HttpResponse:
    """Every table's games, set by set, as they are played; polled by htmx every few seconds."""
    return _render_progress(request, _round_for_officials(request, slug, round_id))


def _done(request: HtmxHttpRequest, round_: Round, text: str, error: bool = False) -> HttpResponse:
    if request.htmx:
        return _render_progress(request, round_, status=422 if error else 200, flash=text,
                                flash_error=error)  # fmt: skip
    (messages.error if error else messages.success)(request, text)
    return redirect("organiser:progress", slug=round_.stage.tournament.slug, round_id=round_.pk)


@login_required
@require_POST
def progress_confirm(
    request: HtmxHttpRequest, slug: str, round_id: int, game_id: int
) -> HttpResponse:
    """The head referee or an organiser confirms a finished game (not one they recorded)."""
    round_ = _round_for_officials(request, slug, round_id)
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id, table__round=round_)
    try:
        game_services.confirm_game(game, request.user)
    except game_services.GameError as error:
        return _done(
            request, round_, in_active_language(error.message_en, error.message_ja), error=True
        )
    except PermissionDenied:
        return _done(
            request,
            round_,
            _(
                "You recorded this result, so another official or a player at the table "
                "confirms it."
            ),
            error=True,
        )
    return _done(
        request,
        round_,
        _("Table %(table)s, set %(set)s game %(game)s confirmed.")
        % {"table": game.table.number, "set": game.set_number, "game": game.game_number},
    )


@login_required
@require_POST
def progress_pin(request: HtmxHttpRequest, slug: str, round_id: int, table_id: int) -> HttpResponse:
    """Unlock a table's PIN after too many wrong tries, or replace it (`action=new`)."""
    round_ = _round_for_officials(request, slug, round_id)
    table = get_object_or_404(Table.objects.select_related("round__stage__tournament"),
                              pk=table_id, round=round_)  # fmt: skip
    new_pin = request.POST.get("action") == "new"
    game_services.reset_table_pin(table, request.user, new_pin=new_pin)
    if new_pin:
        text = _(
            "Table %(table)s has a new PIN: print its table card again (the old card no longer "
            "works)."
        ) % {"table": table.number}
    else:
        text = _("Table %(table)s's PIN works again.") % {"table": table.number}
    return _done(request, round_, text)


@login_required
@require_GET
def score_sheets(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """Printable score sheets, one page per table, for keeping the round on paper: seats and an
    empty grid per set and game — never a hand or a deal."""
    round_ = _round_for_officials(request, slug, round_id)
    tournament = round_.stage.tournament
    return render(
        request,
        "organiser/score_sheets.html",
        {
            "tournament": tournament,
            "round": round_,
            "organises": is_organiser(request.user, tournament),
            "tables": progress_tables(round_),
            "sets": range(1, tournament.sets_per_round + 1),
            "games": range(1, tournament.games_per_set + 1),
        },
    )


@login_required
@require_GET
def results_sheet_view(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """The round's results for the wall: per table, each game's placings and points and the
    round totals; marked provisional until the round is complete."""
    round_ = _round_for_officials(request, slug, round_id)
    return render(
        request,
        "organiser/results_sheet.html",
        {
            "tournament": round_.stage.tournament,
            "round": round_,
            "organises": is_organiser(request.user, round_.stage.tournament),
            "sheet": results_sheet(round_),
            "final": round_.is_settled,
        },
    )
