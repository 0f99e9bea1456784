"""Public leaderboards (順位表), player pages, exports and the embeddable board.

Only published tournaments (not drafts) are shown, and nothing here can reach a hand: the
pages read `Standing` and `GameResult` rows only.

A board is paginated (`scoring.selectors.page_size` rows a page, with "find a player"); the
print page and the exports have every row. What the public reads is built from plain rows and
kept in the cache per (scope, standings version, page, language), so a version is rendered
once however many people watch it.

Live updates poll the board partial every few seconds while the tab is visible, sending the
version they show (`?v=`); while the standings are unchanged the answer is an empty 204,
which htmx does not swap. Once the board's URL and its version are in the cache (the scope a
URL names is kept there when a page is served, and the version is published there by each
recompute) that answer costs no query. Every answer with content first checks, in the
database, that the tournament is public: a tournament set back to draft is never shown,
though a poll of a page already open may still hear "unchanged" for `ADDRESS_SECONDS`.

Public answers (the board partial, the embed, the exports, the 204) may be kept by a proxy or
CDN for `PUBLIC_MAX_AGE` seconds: they carry an ETag of the version (a matching
``If-None-Match`` gets a 304) and vary on ``HX-Request`` and the language (``Accept-Language``
and the language cookie). Full pages carry a CSRF token and the visitor's header: private.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar, cast

import redis
from django.conf import settings
from django.core.cache import cache
from django.core.paginator import InvalidPage, Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from config.spreadsheet import (
    CsvEncoding,
    CsvRefused,
    csv_bytes,
    csv_encoding,
    csv_refusal,
    csv_response,
)
from games.clock import clock_use_by_tournament
from games.display import title_label
from games.models import GameResult
from scoring.charts import progression_svg, rating_history_svg
from scoring.cuts import CutLine
from scoring.exports import export_rows, standings_csv, standings_json, team_standings_csv
from scoring.models import Rating, Scope
from scoring.ratings import display_rating
from scoring.selectors import (
    FIND_LIMIT,
    board_rows,
    field_figures,
    find_rows,
    flag_decided,
    metric_columns,
    page_size,
    rating_history,
    rating_leaderboard,
    summarise_field,
    team_board_rows,
    with_metric_values,
)
from scoring.standings import (
    KEY_COLUMN,
    ScopeRef,
    metric_for_tie_break,
    order_caption,
    order_steps,
    result_is_provisional,
    scope_metrics,
    scope_rounds,
    standings_version,
)
from tournaments.models import Bye, League, Penalty, Player, Season, Stage, Tournament
from tournaments.points import TIE_BREAK_KEYS, tie_breaks
from tournaments.selectors import main_stages, public_tournaments, visible_tournaments

# Seconds a proxy or CDN may serve a public answer without asking again: small, as a live
# board's viewers expect a new version within a poll or two.
PUBLIC_MAX_AGE = 2
# Seconds a rendered board (or export) of one version is kept. What the standings version does
# not cover — a renamed stage, a changed cut rule, a finished tournament — shows on new page
# loads after at most this long.
RENDERED_SECONDS = 60
# Seconds the scope a board URL names is remembered for polls (see the module docstring).
ADDRESS_SECONDS = 60


T = TypeVar("T")


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
    def url(self) -> str:
        """The board's own page (its polls and its pages' links go there)."""
        if self.season is not None:
            return reverse("scoring:season", args=[self.season.pk])
        assert self.tournament is not None
        if self.stage is not None:
            return reverse("scoring:stage", args=[self.tournament.slug, self.stage.pk])
        return reverse("scoring:tournament", args=[self.tournament.slug])


@dataclass(frozen=True, slots=True)
class BoardAddress:
    """What a board's URL names: a tournament (its slug), one of its stages, or a season."""

    slug: str = ""
    stage_id: int | None = None
    season_id: int | None = None

    @property
    def cache_key(self) -> str:
        return f"board:address:{self.slug}:{self.stage_id}:{self.season_id}"

    def board(self) -> Board:
        """The board, from the database: 404 unless it is public. Remembers its scope for
        the polls of this address."""
        board = self._public_board()
        _remember_scope(self, board.ref)
        return board

    def _public_board(self) -> Board:
        if self.season_id is not None:
            season = get_object_or_404(Season.objects.select_related("league"), pk=self.season_id)
            if (
                not Tournament.objects.exclude(status=Tournament.Status.DRAFT)
                .filter(season=season)
                .exists()
            ):
                raise Http404("No published tournament in this season.")
            return Board(ScopeRef.season(season.pk), str(season), None, season=season)
        if self.stage_id is not None:
            stage = get_object_or_404(
                Stage.objects.select_related("tournament").exclude(
                    tournament__status=Tournament.Status.DRAFT
                ),
                pk=self.stage_id,
                tournament__slug=self.slug,
            )
            tournament = stage.tournament
            title = f"{tournament.name} · {stage.name}"
            return Board(ScopeRef.stage(stage.pk), title, tournament, stage)
        tournament = get_object_or_404(
            Tournament.objects.exclude(status=Tournament.Status.DRAFT), slug=self.slug
        )
        return Board(ScopeRef.tournament(tournament.pk), tournament.name, tournament)


def _remember_scope(address: BoardAddress, ref: ScopeRef) -> None:
    with contextlib.suppress(redis.RedisError):  # the next poll finds it in the database
        cache.set(address.cache_key, ref.key, ADDRESS_SECONDS)


def _known_scope(address: BoardAddress) -> ScopeRef | None:
    """The scope the address names, if a page of it was served lately (no query)."""
    try:
        key = cache.get(address.cache_key)
    except redis.RedisError:
        return None
    if key is None:
        return None
    kind, _, scope_id = str(key).partition(":")
    return ScopeRef(kind, int(scope_id))


def _cached(key: str, build: Callable[[], T]) -> T:
    """`build()`, kept under `key` for `RENDERED_SECONDS` for the next reader. With the cache
    away, every reader builds it (slower, never wrong)."""
    try:
        found = cache.get(key)
    except redis.RedisError:
        return build()
    if found is not None:
        return cast(T, found)
    value = build()
    with contextlib.suppress(redis.RedisError):
        cache.set(key, value, RENDERED_SECONDS)
    return value


def _page_number(request: HttpRequest) -> int:
    text = request.GET.get("page", "1")
    if not text.isdecimal() or int(text) < 1:
        raise Http404("No such page.")
    return int(text)


def _etag(ref: ScopeRef, version: int, *parts: object) -> str:
    """A strong ETag naming everything a public answer depends on: scope, version, language
    and the answer's own parts (page, partial or embed, export format)."""
    return '"' + "-".join(str(p) for p in (ref.kind, ref.id, version, get_language(), *parts)) + '"'


def _public(response: HttpResponse, etag: str) -> HttpResponse:
    patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    response["ETag"] = etag
    # The same URL answers htmx polls with the partial and browsers with the page.
    patch_vary_headers(response, ["HX-Request"])
    return response


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, private=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _unchanged_answer(
    request: HttpRequest, ref: ScopeRef, parts: tuple[object, ...], *, public: bool
) -> HttpResponse | None:
    """The empty answer when the client already has the scope's current version: a 204 to an
    htmx poll that sent it (`?v=`), a 304 to an ``If-None-Match`` of a public answer's ETag.
    No query when the version is in the cache."""
    version = standings_version(ref)
    etag = _etag(ref, version, *parts)
    if getattr(request, "htmx", False) and request.GET.get("v") == str(version):
        return _public(HttpResponse(status=204), etag)
    if public and (conditional := get_conditional_response(request, etag=etag)) is not None:
        return _public(conditional, etag)
    return None


def _board_or_unchanged(
    request: HttpRequest, address: BoardAddress, parts: tuple[object, ...], *, public: bool
) -> Board | HttpResponse:
    """The public board the address names, or the empty answer when the client is up to date
    — found from the cache alone when the address was served lately, else after checking in
    the database that the board is public (404 if not)."""
    known = _known_scope(address)
    if known is not None:
        answer = _unchanged_answer(request, known, parts, public=public)
        if answer is not None:
            return answer
    board = address.board()
    answer = _unchanged_answer(request, board.ref, parts, public=public)
    return board if answer is None else answer


def _frame(board: Board, version: int, cut: CutLine | None) -> dict[str, Any]:
    """What frames a board's rows, on the screen and on paper."""
    keys = (
        tie_breaks(board.tournament.points_table)
        if board.tournament is not None
        else tie_breaks({})
    )
    # A key naming another family's metric ranks no one here (the SQL skips it): not said
    # (a 掼蛋 board is not ranked on 大富豪 titles).
    metrics = scope_metrics(board.ref)
    keys = tuple(k for k in keys if k in KEY_COLUMN or metric_for_tie_break(k, metrics) is not None)
    if cut is not None and board.stage is not None:  # the rule in the page's language
        cut = replace(cut, rule=board.stage.advancement_label)
    rounds = scope_rounds(board.ref)
    main = (
        list(main_stages(board.tournament))
        if board.tournament is not None and board.season is None
        else []
    )
    return {
        "board": board,
        # The tournament's rank: stage reached first, in words (「決勝の順位 → 予選の順位」).
        "order_caption": (
            order_caption(order_steps(board.ref.id))
            if board.ref.kind == Scope.TOURNAMENT and len(main) > 1
            else ""
        ),
        # Which stage each entrant reached (到達), once the tournament has more than one.
        "show_reached": len(main) > 1,
        "board_url": board.url,
        "version": version,
        "cut": cut,
        "rounds": rounds,
        "all_complete": bool(rounds) and all(line.complete for line in rounds),
        "corrected": [line for line in rounds if line.corrected],
        "tie_breaks": [str(TIE_BREAK_KEYS[k]) for k in keys],
        # "total points, then more 大富豪 titles, then …": the keys as one phrase.
        "tie_breaks_text": pgettext("tie-breaks, one after another", ", then ").join(
            str(TIE_BREAK_KEYS[k]) for k in keys
        ),
        "metric_columns": metric_columns(board.ref, keys),
        "poll_seconds": settings.LEADERBOARD_POLL_SECONDS,
        "live": board.tournament is None or board.tournament.status != Tournament.Status.FINISHED,
        "stages": (
            list(board.tournament.stages.order_by("order")) if board.tournament is not None else []
        ),
        # A team tournament's board shows its teams first (a season ranks players only).
        "plays_in_teams": board.season is None
        and board.tournament is not None
        and board.tournament.plays_in_teams,
    }


def _page_context(board: Board, version: int, page: int, path: str) -> dict[str, Any]:
    """One page of the board: its rows, the pages around it, and the figures of the whole
    field every page shows (the cut line, the playoff flags, provisional results). `path`:
    where its polls go (the board's page or the embed)."""
    size = page_size()
    # The whole field's figures: once per version for every page and language.
    summary, figures = _cached(
        f"board:field:{board.ref.key}:v{version}",
        lambda: (summarise_field(board.ref), field_figures(board.ref, board.stage)),
    )
    paginator = Paginator(range(summary.count), size)
    try:
        shown = paginator.page(page)
    except InvalidPage as error:
        raise Http404("No such page.") from error
    offset = (shown.number - 1) * size
    context = _frame(board, version, figures.cut)
    cut = context["cut"]
    line_page = (
        (len(cut.advancing) - 1) // size + 1 if cut is not None and cut.line_after_entry else None
    )
    poll = f"{path}?v={version}" if page == 1 else f"{path}?page={page}&v={version}"
    return {
        **context,
        # Teams are few: their whole table heads the first page.
        "team_rows": team_board_rows(board.ref) if context["plays_in_teams"] and page == 1 else [],
        "rows": with_metric_values(
            flag_decided(board_rows(board.ref)[offset : offset + size], figures.decided),
            context["metric_columns"],
        ),
        "any_provisional": summary.provisional_games > 0,
        # A scope with duplicate games shows each row's par beside its points.
        "duplicate": summary.duplicate,
        "page": shown,
        "page_range": list(paginator.get_elided_page_range(page, on_each_side=1, on_ends=1)),
        "ellipsis": paginator.ELLIPSIS,
        "total": summary.count,
        "cut_line_page": line_page,
        "poll_url": poll,
    }


def _serve_board(request: HtmxHttpRequest, address: BoardAddress, variant: str) -> HttpResponse:
    """The board page (`variant` "standings") or the embed ("embed", its first page only): the
    htmx partial of a poll, or the whole page; rendered once per version, page and language."""
    find = request.GET.get("find", "").strip()
    if variant == "standings" and find:
        return _find_player(request, address.board(), find)
    page = 1 if variant == "embed" else _page_number(request)
    part = "board" if request.htmx else "page"
    # The board page's shell carries the visitor's CSRF token and header: not for a proxy.
    public = part == "board" or variant == "embed"
    found = _board_or_unchanged(request, address, (variant, part, page), public=public)
    if isinstance(found, HttpResponse):
        return found
    board = found
    version = standings_version(board.ref)
    template = "scoring/embed.html" if variant == "embed" else "scoring/board.html"
    html = _cached(
        f"board:{variant}:{part}:{board.ref.key}:v{version}:{get_language()}:p{page}",
        lambda: render_to_string(
            f"{template}#board" if part == "board" else template,
            _page_context(board, version, page, request.path),
            request,
        ),
    )
    if public:
        return _public(HttpResponse(html), _etag(board.ref, version, variant, part, page))
    content: SafeString = mark_safe(html)  # rendered by our own templates, escaped there
    return _private(render(request, "scoring/standings.html", {"board": board, "content": content}))


def _find_player(request: HttpRequest, board: Board, text: str) -> HttpResponse:
    """The "find a player" box: one match goes to its page, the row highlighted (the URL's
    fragment names it, a stylesheet's `:target`); several, or none, are listed."""
    found = find_rows(board.ref, text)
    for row in found:
        row["url"] = f"{board.url}?page={row['page']}#player-{row['player_id']}"
    if len(found) == 1:
        return HttpResponseRedirect(found[0]["url"])
    return render(
        request,
        "scoring/find.html",
        {
            "board": board,
            "board_url": board.url,
            "text": text,
            "rows": found[:FIND_LIMIT],
            "more": len(found) > FIND_LIMIT,
        },
    )


@require_GET
def standings_index(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/index.html", {"tournaments": public_tournaments()})


@require_GET
def tournament_standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _serve_board(request, BoardAddress(slug), "standings")


@require_GET
def stage_standings(request: HtmxHttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return _serve_board(request, BoardAddress(slug, stage_id=stage_id), "standings")


@require_GET
def season_standings(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    return _serve_board(request, BoardAddress(season_id=season_id), "standings")


def _print(request: HttpRequest, address: BoardAddress) -> HttpResponse:
    """The standings as a printable page (A4, no navigation), provisional marks included:
    every row — it is for a printer — from plain rows."""
    board = address.board()
    figures = field_figures(board.ref, board.stage)
    frame = _frame(board, standings_version(board.ref), figures.cut)
    rows = with_metric_values(
        flag_decided(board_rows(board.ref), figures.decided), frame["metric_columns"]
    )
    context = {
        **frame,
        "team_rows": team_board_rows(board.ref) if frame["plays_in_teams"] else [],
        "rows": rows,
        "any_provisional": any(row["provisional_games"] for row in rows),
        "duplicate": any(row["duplicate_points"] is not None for row in rows),
    }
    return render(request, "scoring/standings_print.html", context)


@require_GET
def tournament_standings_print(request: HttpRequest, slug: str) -> HttpResponse:
    return _print(request, BoardAddress(slug))


@require_GET
def stage_standings_print(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return _print(request, BoardAddress(slug, stage_id=stage_id))


@require_GET
@xframe_options_exempt  # meant to be framed by club and venue sites
def embed(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _serve_board(request, BoardAddress(slug), "embed")


# --- exports ---------------------------------------------------------------------------------


def _export(request: HttpRequest, address: BoardAddress, fmt: str, name: str) -> HttpResponse:
    """Every row as CSV or JSON, built from plain rows once per version (and language: the
    CSV's header row and its flags are in the reader's; and encoding, `?encoding=`)."""
    if fmt == "csv":
        encoding = _csv_encoding(request)
        if isinstance(encoding, HttpResponse):
            return encoding
        found = _board_or_unchanged(request, address, ("export", "csv", encoding.key), public=True)
        if isinstance(found, HttpResponse):
            return found
        board = found
        return _csv_export(
            request,
            board,
            "export",
            encoding,
            lambda: standings_csv(export_rows(board.ref), scope_metrics(board.ref)),
            (pgettext("CSV file name", "standings"), f"{name}-standings"),
        )
    found = _board_or_unchanged(request, address, ("export", fmt), public=True)
    if isinstance(found, HttpResponse):
        return found
    board = found
    version = standings_version(board.ref)
    json_text = _cached(
        f"board:export:{fmt}:{board.ref.key}:v{version}:{get_language()}",
        lambda: json.dumps(
            standings_json(board.ref, board.title, version),
            cls=DjangoJSONEncoder,
            ensure_ascii=False,
        ),
    )
    response = HttpResponse(json_text, content_type="application/json")
    return _public(response, _etag(board.ref, version, "export", fmt))


def _csv_encoding(request: HttpRequest) -> CsvEncoding | HttpResponse:
    """The encoding `?encoding=` asks for, or the 400 refusal of one the exports do not
    write."""
    try:
        return csv_encoding(request.GET.get("encoding"))
    except CsvRefused as error:
        return csv_refusal(request, error, request.path)


def _csv_export(
    request: HttpRequest,
    board: Board,
    kind: str,
    encoding: CsvEncoding,
    build: Callable[[], list[list[str]]],
    names: tuple[str, str],
) -> HttpResponse:
    """A board's CSV download (`config.spreadsheet`), its bytes built once per (version,
    language, encoding); a Shift_JIS file that cannot hold a name is refused (422), offering
    the UTF-8 download (the same address without `?encoding=`). `names`: the file's name
    after the board's title, in the reader's language, and its ASCII fallback."""
    version = standings_version(board.ref)
    key = f"board:{kind}:csv:{encoding.key}:{board.ref.key}:v{version}:{get_language()}"
    try:
        data = _cached(key, lambda: csv_bytes(build(), encoding))
    except CsvRefused as error:
        return csv_refusal(request, error, request.path)
    word, fallback = names
    filename = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "_", f"{board.title} {word}") + ".csv"
    response = csv_response(data, encoding, filename, f"{fallback}.csv")
    return _public(response, _etag(board.ref, version, kind, "csv", encoding.key))


@require_GET
def tournament_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    return _export(request, BoardAddress(slug), fmt, slug)


@require_GET
def stage_export(request: HttpRequest, slug: str, stage_id: int, fmt: str) -> HttpResponse:
    return _export(request, BoardAddress(slug, stage_id=stage_id), fmt, f"{slug}-stage-{stage_id}")


@require_GET
def season_export(request: HttpRequest, season_id: int, fmt: str) -> HttpResponse:
    return _export(request, BoardAddress(season_id=season_id), fmt, f"season-{season_id}")


def _team_export(request: HttpRequest, address: BoardAddress, name: str) -> HttpResponse:
    """A team tournament's team standings as CSV, built once per version, language and
    encoding (404 for a tournament played alone)."""
    encoding = _csv_encoding(request)
    if isinstance(encoding, HttpResponse):
        return encoding
    found = _board_or_unchanged(request, address, ("team-export", "csv", encoding.key), public=True)
    if isinstance(found, HttpResponse):
        return found
    board = found
    if board.tournament is None or not board.tournament.plays_in_teams:
        raise Http404("Not a team tournament.")
    return _csv_export(
        request,
        board,
        "team-export",
        encoding,
        lambda: team_standings_csv(team_board_rows(board.ref)),
        (pgettext("CSV file name", "team standings"), f"{name}-team-standings"),
    )


@require_GET
def tournament_team_export(request: HttpRequest, slug: str) -> HttpResponse:
    return _team_export(request, BoardAddress(slug), slug)


@require_GET
def stage_team_export(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    return _team_export(request, BoardAddress(slug, stage_id=stage_id), f"{slug}-stage-{stage_id}")


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
        return title_label(self.result.detail)


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
    clock = clock_use_by_tournament(player.pk)
    blocks = list(by_tournament.values())
    for block in blocks:
        block["clock"] = clock.get(block["tournament"].pk)
        block["chart"] = progression_svg(block["totals"], label=block["tournament"].name)
        # The tournament total as the standings count it: net of active deductions.
        block["points"] = block["totals"][-1] - block["penalty_points"]
    rating = Rating.objects.filter(player=player).first()
    history = rating_history(player)
    rating_chart = rating_history_svg(
        [display_rating(p.mu, p.sigma) for p in history], label=player.display_name
    )
    return render(
        request,
        "scoring/player.html",
        {"player": player, "blocks": blocks, "rating": rating, "rating_chart": rating_chart},
    )


def _ratings_page(
    request: HttpRequest, title: str, tournaments: QuerySet[Tournament], **context: Any
) -> HttpResponse:
    rows = rating_leaderboard(tournaments)
    return render(request, "scoring/ratings.html", {"title": title, "rows": rows, **context})


@require_GET
def all_ratings(request: HttpRequest) -> HttpResponse:
    """Everyone who played a rated game in a tournament the reader may see, by rating."""
    tournaments = visible_tournaments(request.user).filter(rated=True)
    return _ratings_page(request, _("All rated events"), tournaments)


@require_GET
def league_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's rating leaderboard: everyone who played a rated game in one of its published
    seasons' tournaments, by their rating across every rated event."""
    league = get_object_or_404(League, slug=slug)
    tournaments = visible_tournaments(request.user).filter(season__league=league)
    return _ratings_page(request, league.name, tournaments, league=league)


@require_GET
def season_ratings(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    tournaments = visible_tournaments(request.user).filter(season=season)
    return _ratings_page(request, str(season), tournaments, league=season.league, season=season)
