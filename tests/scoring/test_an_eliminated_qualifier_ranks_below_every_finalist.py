"""The tournament's board ranks by stage reached first: a qualifier eliminated at the cut ranks
below every finalist, even with more points over the whole day than two of them (the sum across
stages is not the order).

13 players, tables of 4, 4 and 5 (`long`), points `plus2-minus2` (4 seats: 2 1 −1 −2; 5 seats:
2 1 0 −1 −2), one game a round. In the qualifying round every table finishes in seat order, so
the three table winners W have 2 points and the three seconds S 1 point each, level on every
tie-break: the top-4 cut takes the winners and the seconds' playoff (順位決定戦) decides the
fourth place (S1; then S2, S3). In the final (one game), two winners finish 1st and 2nd, S1 3rd
(1 − 1 = 0 over the day) and the third winner last (2 − 2 = 0); S2, eliminated, has 1.
"""

from __future__ import annotations

import random

import pytest
from django.db.models import Sum
from django.test import Client

from games.models import Game, GameResult
from games.seating import positions_of
from scoring.standings import recompute_tournament
from tests.scoring import final_order_oracle as oracle
from tests.scoring.published_order import (
    advance,
    by_rank,
    json_lines,
    new_event,
    page_lines,
    play_round,
)
from tests.tournaments.stage_scenarios import by_seat
from tournaments import services
from tournaments.models import Seat, Stage

pytestmark = pytest.mark.django_db


def in_seat_order(game: Game, rng: random.Random) -> list[int]:
    return list(range(game.seats))


def test_the_fifth_qualifier_ranks_below_two_finalists_with_fewer_points(client: Client) -> None:
    event = new_event(
        "thirteen", 13, rng=random.Random(13), uneven_tables="long", points_preset="plus2-minus2"
    )
    event.finish = in_seat_order
    tournament, organiser = event.tournament, event.organiser
    qualifying = tournament.stages.get(order=1)
    final = services.add_stage(
        tournament, organiser, name="Final 決勝", kind=Stage.Kind.FINAL, advance_top_n=4
    )

    seats = by_seat(play_round(event, qualifying))
    assert sorted(t.seats.count() for t in event.rounds[0].tables.all()) == [4, 4, 5]
    winners = sorted(seats[1], key=lambda e: e.number)
    advance(event, qualifying)  # the three seconds tie for the 4th place: a playoff
    playoff_round = event.rounds[-1]
    assert playoff_round.stage.kind == Stage.Kind.PLAYOFF
    s1, s2, s3 = (
        Seat.objects.get(round=playoff_round, position=p).entry for p in (1, 2, 3)
    )  # the playoff's placings (seat order)
    finalists = set(final.entrants.values_list("entry_id", flat=True))
    assert finalists == {w.pk for w in winners} | {s1.pk}

    w_a, w_b, w_c = winners
    final_order = [w_a.pk, w_b.pk, s1.pk, w_c.pk]

    def as_planned(game: Game, rng: random.Random) -> list[int]:
        at = {s.position: s.entry_id for s in game.table.seats.all()}
        entry_of = {seat: at[position] for seat, position in enumerate(positions_of(game))}
        return sorted(range(game.seats), key=lambda seat: final_order.index(entry_of[seat]))

    event.finish = as_planned
    play_round(event, final)
    recompute_tournament(tournament.pk)

    # What a sum across the stages would give: S2 ahead of two finalists.
    day = dict(
        GameResult.objects.filter(entry__tournament=tournament)
        .exclude(game__table__round__stage__kind=Stage.Kind.PLAYOFF)
        .values_list("entry")
        .annotate(Sum("points"))
    )
    assert day[s2.pk] == 1 and day[s1.pk] == 0 and day[w_c.pk] == 0

    top = [
        (e.number, rank) for e, rank in ((w_a, 1), (w_b, 2), (s1, 3), (w_c, 4), (s2, 5), (s3, 6))
    ]
    numbers = dict(tournament.entries.values_list("pk", "number"))
    recount = by_rank([(numbers[p.entry], p.rank, 0) for p in oracle.tournament_board(tournament)])
    assert recount[:6] == top
    for name, lines in (
        ("board", page_lines(client, f"/standings/{tournament.slug}/")),
        ("embed", page_lines(client, f"/embed/{tournament.slug}/")),
        ("JSON", json_lines(client, f"/standings/{tournament.slug}/standings.json")),
    ):
        published = by_rank(lines)
        assert published[:6] == top, f"{name}: {published[:6]} (entry, rank)"
        assert published == recount, name
