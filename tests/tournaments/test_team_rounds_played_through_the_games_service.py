"""End to end with the games service: a team event's round 1 is drawn, each table plays its
match as quick hands (recorded by the organiser, confirmed by the head referee) until a team
wins at A, the round completes, and round 2 pairs the winners together from those results."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import Game
from tests.factories import (
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    UserFactory,
    checked_in_teams,
)
from tournaments import services
from tournaments.models import Official, Round, Tournament
from tournaments.selectors import team_match_totals

pytestmark = pytest.mark.django_db


def play_to_ace(round_: Round, recorder: User, confirmer: User) -> None:
    """Every table: the first team (seats 1 and 3) finishes 1-2 each hand until it wins at A."""
    for table in round_.tables.all():
        while True:
            try:
                game = games.start_game(table, recorder, mode=Game.Mode.QUICK)
            except games.GameError as error:
                assert error.code == "match_over"
                break
            games.record_quick_result(game, recorder, [0, 2])
            games.confirm_game(game, confirmer)


def test_round_two_follows_the_matches_played_in_round_one() -> None:
    organiser, head = UserFactory(username="org"), UserFactory(username="head")
    cup: Tournament = GuandanTournamentFactory()
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    OfficialFactory(tournament=cup, user=head, role=Official.Role.HEAD_REFEREE)
    stage = StageFactory(tournament=cup, order=1)
    checked_in_teams(cup, 8)

    first = services.publish_round(services.draw_round(stage, organiser), organiser)
    play_to_ace(first, organiser, head)
    services.complete_round(first, organiser)
    second = services.draw_round(stage, organiser)

    totals = team_match_totals(stage)
    winners = {team for team, (points, _levels) in totals.items() if points == 2}
    assert len(winners) == 4
    for table in second.tables.all():
        sides = {s.position: s.entry.team_id for s in table.seats.select_related("entry")}
        assert (sides[1] in winners) == (sides[2] in winners)
        assert sides[1] == sides[3] and sides[2] == sides[4]
        assert "paired in the" in table.explanation
