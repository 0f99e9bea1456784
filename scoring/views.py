"""Public leaderboards (順位表), player pages, exports and the embeddable board.

Only published tournaments (not drafts) are shown, and nothing here can reach a hand: the
pages read `Standing` and `GameResult` rows only.

Live updates poll the board partial every few seconds while the tab is visible, sending the
version they show (`?v=`); while the standings are unchanged the answer is an empty 204, which
htmx does not swap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import pgettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from games.display import TITLE_LABELS
from games.models import GameResult
from scoring.charts import progression_svg
from scoring.cuts import cut_line
from scoring.exports import rounds_data, standing_dict, standings_csv
from scoring.standings import (
    ScopeRef,
    result_is_provisional,
    scope_rounds,
    standings,
    standings_version,
)
from tournaments.models import Bye, Penalty, Player, Season, Stage, Tournament
from tournaments.points import TIE_BREAK_KEYS, tie_breaks
from tournaments.selectors import public_tournaments


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@dataclass(frozen=True, slots=True)
class Board:
    ref: ScopeRef
    title: str
    tournament: Tournament | None
    stage: Stage | None = None
    season: Season | None = None

    @property
    def url_args(self) -> list[object]:
        if self.season is not None:
            return [self.season.pk]
        assert self.tournament is not None
        return [self.tournament.slug] + ([self.stage.pk] if self.stage is not None else [])


def _public_tournament(slug: str) -> Tournament:
    return get_object_or_404(public_tournaments(), slug=slug)


def _tournament_board(slug: str) -> Board:
    tournament = _public_tournament(slug)
    return Board(ScopeRef.tournament(tournament.pk), tournament.name, tournament)


def _stage_board(slug: str, stage_id: int) -> Board:
    tournament = _public_tournament(slug)
    stage = get_object_or_404(tournament.stages, pk=stage_id)
    return Board(ScopeRef.stage(stage.pk), f"{tournament.name} · {stage.name}", tournament, stage)


def _season_board(season_id: int) -> Board:
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    if not public_tournaments().filter(season=season).exists():
        raise Http404("No published tournament in this season.")
    return Board(ScopeRef.season(season.pk), str(season), None, season=season)


def _context(board: Board) -> dict[str, Any]:
    rows = standings(board.ref)
    keys = (
        tie_breaks(board.tournament.points_table)
        if board.tournament is not None
        else tie_breaks({})
    )
    cut = cut_line(board.stage, rows) if board.stage is not None else None
    if cut is not None and board.stage is not None:  # the rule in the page's language
        cut = replace(cut, rule=board.stage.advancement_label)
    rounds = scope_rounds(board.ref)
    return {
        "board": board,
        "rows": rows,
        "version": standings_version(board.ref),
        "cut": cut,
        "rounds": rounds,
        "all_complete": bool(rounds) and all(line.complete for line in rounds),
        "corrected": [line for line in rounds if line.corrected],
        "any_provisional": any(row.provisional_games for row in rows),
        "tie_breaks": [str(TIE_BREAK_KEYS[k]) for k in keys],
        # "total points, then more 大富豪 titles, then …": the keys as one phrase.
        "tie_breaks_text": pgettext("tie-breaks, one after another", ", then ").join(
            str(TIE_BREAK_KEYS[k]) for k in keys
        ),
        "title_labels": TITLE_LABELS,
        "poll_seconds": settings.LEADERBOARD_POLL_SECONDS,
        "live": board.tournament is None or board.tournament.status != Tournament.Status.FINISHED,
    }


def _render_board(request: HtmxHttpRequest, board: Board, template: str) -> HttpResponse:
    version = standings_version(board.ref)
    if request.htmx and request.GET.get("v") == str(version):
        return HttpResponse(status=204)  # unchanged: htmx keeps what it shows
    context = _context(board)
    if board.tournament is not None:
        context["stages"] = list(board.tournament.stages.order_by("order"))
    if request.htmx:
        return render(request, f"{template}#board", context)
    return render(request, template, context)


@require_GET
def standings_index(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/index.html", {"tournaments": public_tournaments()})


@require_GET
def tournament_standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _render_board(request, _tournament_board(slug), "scoring/standings.html")


@require_GET
def stage_standings(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return _render_board(request, _stage_board(slug, stage_id), "scoring/standings.html")


@require_GET
def season_standings(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    return _render_board(request, _season_board(season_id), "scoring/standings.html")


@require_GET
def tournament_standings_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as a printable page (A4, no navigation), provisional marks included."""
    return render(request, "scoring/standings_print.html", _context(_tournament_board(slug)))


@require_GET
def stage_standings_print(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return render(request, "scoring/standings_print.html", _context(_stage_board(slug, stage_id)))


@require_GET
@xframe_options_exempt  # meant to be framed by club and venue sites
def embed(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    board = _tournament_board(slug)
    return _render_board(request, board, "scoring/embed.html")


# --- exports ---------------------------------------------------------------------------------


def _export(board: Board, fmt: str, name: str) -> HttpResponse:
    rows = standings(board.ref)
    if fmt == "csv":
        response = HttpResponse(standings_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
        return response
    body = {
        "scope": {"kind": board.ref.kind, "id": board.ref.id},
        "title": board.title,
        "version": standings_version(board.ref),
        **rounds_data(scope_rounds(board.ref)),
        "standings": [standing_dict(row) for row in rows],
    }
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})


@require_GET
def tournament_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    return _export(_tournament_board(slug), fmt, slug)


@require_GET
def stage_export(request: HttpRequest, slug: str, stage_id: int, fmt: str) -> HttpResponse:
    return _export(_stage_board(slug, stage_id), fmt, f"{slug}-stage-{stage_id}")


@require_GET
def season_export(request: HttpRequest, season_id: int, fmt: str) -> HttpResponse:
    return _export(_season_board(season_id), fmt, f"season-{season_id}")


# --- players ---------------------------------------------------------------------------------


def player_results(player: Player) -> QuerySet[GameResult]:
    """The player's results in published tournaments, in playing order."""
    return (
        GameResult.objects.filter(entry__player=player)
        .exclude(entry__tournament__status=Tournament.Status.DRAFT)
        .select_related("game__table__round__stage__tournament", "entry")
        .order_by(
            "entry__tournament__starts_on",
            "entry__tournament_id",
            "game__table__round__stage__order",
            "game__table__round__number",
            "game__set_number",
            "game__game_number",
        )
    )


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One line of a player's history: the result, the running total of result points, and
    what the public is told about it."""

    result: GameResult
    total: int

    @property
    def provisional(self) -> bool:
        """Finished, not yet confirmed by a second official (暫定)."""
        return result_is_provisional(self.result.game)

    @property
    def corrected_after_reveal(self) -> bool:
        """The organiser corrected it after the round's seed was revealed (公開後訂正)."""
        return bool(self.result.game.corrected_after_reveal)

    @property
    def title_label(self) -> str:
        """The title in game words (大富豪 Daifugō), not its code."""
        return str(TITLE_LABELS.get(self.result.title, self.result.title))


@dataclass(frozen=True, slots=True)
class PlayerBye:
    """A line of a player's history for a round they sat out with a bye (不戦): its points
    count in the total, but it is not a game."""

    bye: Bye
    total: int
    provisional = False
    corrected_after_reveal = False


def _block(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "results": [],
        "totals": [],
        "penalty_points": 0,
        "warnings": 0,
        "provisional": 0,
    }


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    by_tournament: dict[int, dict[str, Any]] = {}
    # Byes of published rounds, each listed before its tournament's first later result.
    byes: dict[int, list[Bye]] = {}
    for bye in (
        Bye.objects.filter(entry__player=player)
        .exclude(entry__tournament__status=Tournament.Status.DRAFT)
        .exclude(round__status="draft")
        .select_related("round__stage__tournament")
        .order_by("round__stage__order", "round__number")
    ):
        byes.setdefault(bye.round.stage.tournament_id, []).append(bye)

    def add(tournament: Tournament, points: int, line: Callable[[int], Any]) -> None:
        block = by_tournament.setdefault(tournament.pk, _block(tournament))
        total = (block["totals"][-1] if block["totals"] else 0) + points
        block["results"].append(line(total))
        block["totals"].append(total)

    def add_byes(tournament_id: int, before: tuple[int, int] | None = None) -> None:
        waiting = byes.get(tournament_id, [])
        while waiting and (
            before is None or (waiting[0].round.stage.order, waiting[0].round.number) < before
        ):
            bye = waiting.pop(0)
            add(bye.round.stage.tournament, bye.points, partial(PlayerBye, bye))

    for result in player_results(player):
        round_ = result.game.table.round
        tournament = round_.stage.tournament
        add_byes(tournament.pk, (round_.stage.order, round_.number))
        add(tournament, result.points, partial(PlayerResult, result))
        by_tournament[tournament.pk]["provisional"] += int(result_is_provisional(result.game))
    for tournament_id in list(byes):
        add_byes(tournament_id)  # the byes after a tournament's last result
    penalties = Penalty.objects.filter(
        entry__player=player, tournament_id__in=list(by_tournament), withdrawn_at__isnull=True
    ).values_list("tournament_id", "kind", "points")
    for tournament_id, kind, points in penalties:
        if kind == Penalty.Kind.DEDUCTION:
            by_tournament[tournament_id]["penalty_points"] += points
        else:
            by_tournament[tournament_id]["warnings"] += 1
    if (
        not by_tournament
        and not player.entries.exclude(tournament__status=Tournament.Status.DRAFT).exists()
    ):
        raise Http404("No published results for this player.")
    blocks = list(by_tournament.values())
    for block in blocks:
        block["chart"] = progression_svg(block["totals"], label=block["tournament"].name)
        # The tournament total as the standings count it: net of active deductions.
        block["points"] = block["totals"][-1] - block["penalty_points"]
    return render(request, "scoring/player.html", {"player": player, "blocks": blocks})
