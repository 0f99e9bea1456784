"""Standings (順位表) in the REST API: the tournament's overall board, a stage's, a season's.

The rows are the public boards' and the exports' own (plain rows of
`scoring.selectors.board_rows`, shaped by `scoring.exports.row_dict`; only the requested page is
read), with the same frame: the rounds they come from and whether each is final, the stage's cut
line on confirmed results, the tie-break keys. Visibility is the pages': published tournaments
for everyone, a draft only for its organisers; a season once one of its tournaments is visible.
Only `Standing` rows are read: no hand can be reached here.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.authentication import SessionAuthentication
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.auth import DeviceTokenAuthentication
from scoring.exports import order_data, rounds_data, row_dict, team_row_dict
from scoring.models import Rating
from scoring.ratings import display_rating
from scoring.selectors import (
    board_rows,
    field_figures,
    flag_decided,
    rating_history,
    rating_leaderboard,
    summarise_field,
    team_board_rows,
)
from scoring.serializers import (
    LeagueRatingsSerializer,
    PlayerRatingSerializer,
    StandingsSerializer,
    TeamStandingsSerializer,
)
from scoring.standings import ScopeRef, scope_rounds, standings_version
from scoring.team_standings import TEAM_TIE_BREAKS
from tournaments.models import Entry, League, Player, Season, Stage, Tournament
from tournaments.points import tie_breaks
from tournaments.selectors import visible_tournaments


class StandingsPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="Rows per page (default 100, at most 1000)."),
    OpenApiParameter("offset", int, description="Rows to skip."),
]
NOT_FOUND = OpenApiResponse(description="No such board, or one you may not see (a draft).")


def _board(
    request: Request,
    view: APIView,
    ref: ScopeRef,
    title: str,
    tournament: Tournament | None,
    stage: Stage | None = None,
) -> Response:
    # One page of plain rows is read (the paginator slices the query), and the whole field
    # only for what every page states: the cut line and the places a playoff decided.
    figures = field_figures(ref, stage)
    cut = figures.cut
    has_cut = cut is not None and cut.has_rule
    keys = tie_breaks(tournament.points_table) if tournament is not None else tie_breaks({})
    paginator = StandingsPagination()
    page = paginator.paginate_queryset(board_rows(ref), request, view=view)
    shown = flag_decided(board_rows(ref) if page is None else page, figures.decided)
    results = []
    for row in shown:
        data = row_dict(row)
        data["advancing"] = (row["entry_id"] in cut.advancing) if has_cut and cut else None
        results.append(data)
    numbers: dict[int, int] = {}
    if has_cut and cut:
        numbers = dict(
            Entry.objects.filter(pk__in=cut.advancing | set(cut.tied)).values_list("pk", "number")
        )
    summary = summarise_field(ref)
    frame: dict[str, Any] = {
        "scope": {"kind": ref.kind, "id": ref.id},
        "title": title,
        "order": order_data(ref),
        "version": standings_version(ref),
        **rounds_data(scope_rounds(ref)),
        "any_provisional": summary.provisional_games > 0,
        "tie_breaks": list(keys),
        "cut": (
            {
                "rule": cut.rule,
                "advancing": sorted(numbers[e] for e in cut.advancing if e in numbers),
                "tied": sorted(numbers[e] for e in cut.tied if e in numbers),
                "places_left": cut.places_left,
                "line_after_rank": cut.line_after_rank,
                "provisional_games": cut.provisional_games,
            }
            if has_cut and cut
            else None
        ),
        "count": summary.count,
        "next": paginator.get_next_link() if page is not None else None,
        "previous": paginator.get_previous_link() if page is not None else None,
        "results": results,
    }
    return Response(frame)


def _visible_stage(request: Request, stage_id: int) -> Stage:
    """The stage, with its tournament, if the user may see that tournament; else 404."""
    return get_object_or_404(
        Stage.objects.select_related("tournament").filter(
            tournament__in=visible_tournaments(request.user).values("pk")
        ),
        pk=stage_id,
    )


class StandingsView(APIView):
    authentication_classes = [DeviceTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.AllowAny]


class TournamentStandingsView(StandingsView):
    @extend_schema(
        operation_id="tournaments_standings_retrieve",
        parameters=PAGE_PARAMETERS,
        responses={200: StandingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        """The tournament's overall standings, as its public board shows them: rank (shared
        ranks flagged), points net of penalties, titles, provisional (暫定) counts."""
        tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
        return _board(
            request, self, ScopeRef.tournament(tournament.pk), tournament.name, tournament
        )


class StageStandingsView(StandingsView):
    @extend_schema(
        operation_id="stages_standings_retrieve",
        parameters=PAGE_PARAMETERS,
        responses={200: StandingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, stage_id: int) -> Response:
        """A stage's standings (with earlier stages when it carries totals over) and its cut
        line on confirmed results, as the stage board shows them."""
        stage = _visible_stage(request, stage_id)
        tournament = stage.tournament
        title = f"{tournament.name} · {stage.name}"
        return _board(request, self, ScopeRef.stage(stage.pk), title, tournament, stage)


class SeasonStandingsView(StandingsView):
    @extend_schema(
        operation_id="seasons_standings_retrieve",
        parameters=PAGE_PARAMETERS,
        responses={200: StandingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, season_id: int) -> Response:
        """A league season's standings across its published tournaments (drafts never count)."""
        season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
        if not visible_tournaments(request.user).filter(season=season).exists():
            raise Http404("No visible tournament in this season.")
        return _board(request, self, ScopeRef.season(season.pk), str(season), None)


# --- team standings (掼蛋 Guandan team events) -----------------------------------------------

NOT_A_TEAM_EVENT = OpenApiResponse(
    description="No such board, one you may not see (a draft), or a tournament not played in teams."
)


def _team_board(
    request: Request, view: APIView, ref: ScopeRef, title: str, tournament: Tournament
) -> Response:
    if not tournament.plays_in_teams:
        raise Http404("Not a team tournament.")
    rows = team_board_rows(ref)
    paginator = StandingsPagination()
    # A list pages as well as a query (teams are few; every row is read anyway).
    page: list[dict[str, Any]] | None = paginator.paginate_queryset(
        rows,  # type: ignore[arg-type]
        request,
        view=view,
    )
    shown = rows if page is None else page
    return Response(
        {
            "scope": {"kind": ref.kind, "id": ref.id},
            "title": title,
            "version": standings_version(ref),
            **rounds_data(scope_rounds(ref)),
            "any_provisional": any(row["provisional_matches"] for row in rows),
            "tie_breaks": list(TEAM_TIE_BREAKS),
            "count": len(rows),
            "next": paginator.get_next_link() if page is not None else None,
            "previous": paginator.get_previous_link() if page is not None else None,
            "results": [team_row_dict(row) for row in shown],
        }
    )


class TournamentTeamStandingsView(StandingsView):
    @extend_schema(
        operation_id="tournaments_team_standings_retrieve",
        parameters=PAGE_PARAMETERS,
        responses={200: TeamStandingsSerializer, 404: NOT_A_TEAM_EVENT},
    )
    def get(self, request: Request, slug: str) -> Response:
        """A team tournament's team standings (掼蛋 Guandan), as its public board shows them:
        rank (shared ranks flagged), match points, W-D-L, byes, level difference, opponents'
        match points, and the match each team is playing now."""
        tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
        return _team_board(
            request, self, ScopeRef.tournament(tournament.pk), tournament.name, tournament
        )


class StageTeamStandingsView(StandingsView):
    @extend_schema(
        operation_id="stages_team_standings_retrieve",
        parameters=PAGE_PARAMETERS,
        responses={200: TeamStandingsSerializer, 404: NOT_A_TEAM_EVENT},
    )
    def get(self, request: Request, stage_id: int) -> Response:
        """A team tournament stage's team standings (with earlier stages when it carries
        totals over), as the stage board shows them."""
        stage = _visible_stage(request, stage_id)
        tournament = stage.tournament
        title = f"{tournament.name} · {stage.name}"
        return _team_board(request, self, ScopeRef.stage(stage.pk), title, tournament)


# --- ratings across events (docs/ratings.md) --------------------------------------------------


class LeagueRatingsView(StandingsView):
    @extend_schema(
        operation_id="leagues_ratings_retrieve",
        responses={200: LeagueRatingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, id: int) -> Response:
        """A league's rating leaderboard: the players of its visible tournaments' rated games,
        by their rating across every rated event (deal-adjusted openskill, μ − 3σ)."""
        league = get_object_or_404(League, pk=id)
        tournaments = visible_tournaments(request.user).filter(season__league=league)
        data = {
            "league": league.slug,
            "name": league.name,
            "results": rating_leaderboard(tournaments),
        }
        return Response(LeagueRatingsSerializer(data).data)


class PlayerRatingView(StandingsView):
    @extend_schema(
        operation_id="players_rating_retrieve",
        responses={200: PlayerRatingSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's rating and its history, one point per rated game (settled rounds only:
        nothing here is known before a round is complete)."""
        player = get_object_or_404(Player, pk=player_id)
        rating = Rating.objects.filter(player=player).first()
        history = [
            {
                "sequence": p.sequence,
                "game_id": p.game_id,
                "tournament": p.tournament,
                "played_at": p.played_at,
                "mu": p.mu,
                "sigma": p.sigma,
                "rating": display_rating(p.mu, p.sigma),
            }
            for p in rating_history(player)
        ]
        data = {
            "player": player.pk,
            "name": player.display_name,
            "rating": rating.display if rating else None,
            "spread": rating.display_spread if rating else None,
            "raw_rating": rating.raw_display if rating else None,
            "games": rating.games if rating else 0,
            "history": history,
        }
        return Response(PlayerRatingSerializer(data).data)
