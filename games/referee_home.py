"""The referee's home page, /referee/ (issue #12): the tables assigned to the signed-in user in
rounds that are published or in play, grouped by tournament and round, each with where its
current game stands and a big link to the console; head referees and organisers also see
their tournaments' open rounds. A referee manages their own devices' tokens here too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.devices import own_devices
from games.display import gd_match
from games.models import LATEST_FIRST, Game
from tournaments.models import Official, Round, Seat, Table, Tournament
from tournaments.permissions import AnyUser


@dataclass
class TableStatus:
    code: str  # not_started | in_play | unconfirmed | confirmed | void
    label: str


def table_status(game: Game | None) -> TableStatus:
    """Where a table's latest game stands, in words for the referee."""
    if game is None:
        return TableStatus("not_started", _("Not started"))
    if game.match is not None:
        return _hand_status(game)
    where = {"set": game.set_number, "game": game.game_number}
    if game.status == Game.Status.IN_PLAY:
        return TableStatus("in_play", _("Set %(set)s · game %(game)s in play") % where)
    if game.status == Game.Status.FINISHED:
        return TableStatus(
            "unconfirmed", _("Set %(set)s · game %(game)s waiting for confirmation") % where
        )
    if game.status == Game.Status.CONFIRMED:
        return TableStatus(
            "confirmed", _("Set %(set)s · game %(game)s confirmed — next game to start") % where
        )
    return TableStatus("void", _("Set %(set)s · game %(game)s void") % where)


def _hand_status(game: Game) -> TableStatus:
    """A hand of a team match (掼蛋): its number and both teams' levels as it started."""
    levels = gd_match(game.match)["levels"]
    where = {"hand": game.game_number, "first": levels[0], "second": levels[1]}
    if game.status == Game.Status.IN_PLAY:
        return TableStatus(
            "in_play", _("Hand %(hand)s in play · levels %(first)s–%(second)s") % where
        )
    if game.status == Game.Status.FINISHED:
        return TableStatus("unconfirmed", _("Hand %(hand)s waiting for confirmation") % where)
    if game.status == Game.Status.CONFIRMED:
        return TableStatus("confirmed", _("Hand %(hand)s confirmed — next hand to start") % where)
    return TableStatus("void", _("Hand %(hand)s void") % where)


@dataclass
class RoundGroup:
    round: Round
    tables: list[Table] = field(default_factory=list)


@dataclass
class TournamentGroup:
    tournament: Tournament
    rounds: list[RoundGroup] = field(default_factory=list)


def assigned_tables(user: AnyUser) -> list[Table]:
    """The user's tables in rounds that are published or in play, each with `.status`."""
    if not user.is_authenticated:
        return []
    tables = list(
        Table.objects.filter(referee_id=user.pk, round__status__in=Round.OPEN)
        .select_related("round__stage__tournament")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position"))
        )
        .order_by(
            "round__stage__tournament__starts_on",
            "round__stage__tournament_id",
            "round__stage__order",
            "round__number",
            "number",
        )
    )
    latest: dict[int, Game] = {}
    for game in Game.objects.filter(table__in=tables).order_by("table_id", *LATEST_FIRST):
        latest.setdefault(game.table_id, game)
    for table in tables:
        table.status = table_status(latest.get(table.pk))  # type: ignore[attr-defined]
    return tables


def group_tables(tables: list[Table]) -> list[TournamentGroup]:
    groups: list[TournamentGroup] = []
    for table in tables:
        tournament = table.round.stage.tournament
        if not groups or groups[-1].tournament.pk != tournament.pk:
            groups.append(TournamentGroup(tournament))
        rounds = groups[-1].rounds
        if not rounds or rounds[-1].round.pk != table.round_id:
            rounds.append(RoundGroup(table.round))
        rounds[-1].tables.append(table)
    return groups


def run_rounds(user: AnyUser) -> list[dict[str, Any]]:
    """Open rounds of the tournaments the user organises or head-referees, with their tables
    (a head referee may open any table's console) and whether the organiser pages are theirs."""
    if not user.is_authenticated:
        return []
    roles = Official.objects.filter(
        user_id=user.pk, role__in=[Official.Role.ORGANISER, Official.Role.HEAD_REFEREE]
    )
    organising = set(
        roles.filter(role=Official.Role.ORGANISER).values_list("tournament_id", flat=True)
    )
    rounds = (
        Round.objects.filter(
            Q(stage__tournament__in=roles.values("tournament")), status__in=Round.OPEN
        )
        .select_related("stage__tournament")
        .prefetch_related(Prefetch("tables", Table.objects.order_by("number")))
        .order_by("stage__tournament__starts_on", "stage__tournament_id", "stage__order", "number")
    )
    return [
        {
            "round": round_,
            "tournament": round_.stage.tournament,
            "organiser": round_.stage.tournament_id in organising,
        }
        for round_ in rounds
    ]


def officiated_tournaments(user: AnyUser) -> list[Tournament]:
    """Tournaments the user officiates (for their own devices' tokens), newest first."""
    if not user.is_authenticated:
        return []
    return list(
        Tournament.objects.filter(officials__user_id=user.pk)
        .exclude(status=Tournament.Status.FINISHED)
        .distinct()
        .order_by("-starts_on", "name")
    )


def home_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    user = request.user
    return {
        "groups": group_tables(assigned_tables(user)),
        "run_rounds": run_rounds(user),
        "devices": own_devices(user),
        "device_tournaments": officiated_tournaments(user),
        **extra,
    }


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """My tables (and, for the head referee and organisers, the rounds they run)."""
    return render(request, "games/referee_home.html", home_context(request))
