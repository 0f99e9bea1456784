"""Read-only queries over games for public pages and downloads."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, QuerySet, Subquery

from games.models import Game, ResultVersion
from tournaments.models import Round, Tournament
from tournaments.selectors import visible_rounds

# The order a tournament's games are listed in: as they were played at each table.
PLAYING_ORDER = (
    "table__round__stage__order",
    "table__round__number",
    "table__number",
    "set_number",
    "game_number",
    "attempt",
)


def public_games() -> QuerySet[Game]:
    """Games the public may see: those of published rounds of published tournaments. One
    rule for everyone: an official of the table gets no more through a public download."""
    rounds = visible_rounds(AnonymousUser()).values("pk")
    return Game.objects.filter(table__round__in=rounds).select_related(
        "table__round__stage__tournament"
    )


def ended_games(scope: Round | Tournament) -> QuerySet[Game]:
    """The public games of a round or of a tournament that have ended with a result
    (finished or confirmed; void ones left out), in playing order."""
    games = public_games().filter(status__in=(Game.Status.FINISHED, Game.Status.CONFIRMED))
    if isinstance(scope, Round):
        games = games.filter(table__round=scope)
    else:
        games = games.filter(table__round__stage__tournament=scope)
    latest_kind = (
        ResultVersion.objects.filter(game=OuterRef("pk")).order_by("-number").values("kind")[:1]
    )
    # Whether the result is still the one its moves gave (`games.records` has the record).
    return games.annotate(result_kind=Subquery(latest_kind)).order_by(*PLAYING_ORDER)
