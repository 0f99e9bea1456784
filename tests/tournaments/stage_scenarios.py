"""A qualifying stage played through the services with ties by construction (shared by the
stage, preview and playoff tests): every table finishes in seat order, so the entrants in the
same seat at every table end level on every tie-break."""

from __future__ import annotations

from django.contrib.auth.models import User

from tests.factories import play_round_quickly
from tournaments import services
from tournaments.models import Entry, Round, Seat, Stage, Tournament

from .conftest import checked_in


def play_stage(stage: Stage, organiser: User, head_referee: User) -> Round:
    """Draw, publish, play (seat order) and reveal one round of `stage`."""
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    play_round_quickly(round_, organiser, head_referee)
    return services.reveal_round_seed(round_, organiser)


def by_seat(round_: Round) -> dict[int, list[Entry]]:
    """The entries of `round_` per seat position (1 = finished first at every table)."""
    seats: dict[int, list[Entry]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("entry").order_by("table"):
        seats.setdefault(seat.position, []).append(seat.entry)
    return seats


def quick_format(tournament: Tournament) -> None:
    """One game a round, so the tests play quickly."""
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=1, sets_per_round=1)
    tournament.refresh_from_db()


def tied_qualifying(
    tournament: Tournament,
    stage: Stage,
    organiser: User,
    head_referee: User,
    *,
    entrants: int = 12,
    top_n: int = 4,
) -> dict[int, list[Entry]]:
    """`entrants` checked in, a final after `stage` taking the top `top_n`, one round played:
    with 12 at three tables and top 4, the three seat-1 players are in and the three seat-2
    players tie for the last place."""
    quick_format(tournament)
    checked_in(tournament, entrants)
    services.add_stage(
        tournament, organiser, name="Final 決勝", kind=Stage.Kind.FINAL, advance_top_n=top_n
    )
    stage.refresh_from_db()
    return by_seat(play_stage(stage, organiser, head_referee))
