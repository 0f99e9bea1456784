"""A published table of four with its referee, plus the tournament's other officials."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from games.models import Game
from tests.factories import GameFactory, OfficialFactory, UserFactory, seated_table
from tournaments.models import Official, Table, Tournament


@dataclass
class Crew:
    table: Table
    tournament: Tournament
    referee: User
    other_referee: User
    head_referee: User
    organiser: User
    outsider_organiser: User


@pytest.fixture
def crew(db: None) -> Crew:
    referee = UserFactory(username="ref-ito")
    table = seated_table(referee)
    tournament = table.round.stage.tournament
    other = UserFactory(username="ref-ueda")
    head = UserFactory(username="head-endo")
    organiser = UserFactory(username="org-kato")
    OfficialFactory(tournament=tournament, user=referee, role=Official.Role.REFEREE)
    OfficialFactory(tournament=tournament, user=other, role=Official.Role.REFEREE)
    OfficialFactory(tournament=tournament, user=head, role=Official.Role.HEAD_REFEREE)
    OfficialFactory(tournament=tournament, user=organiser, role=Official.Role.ORGANISER)
    outsider = UserFactory(username="org-elsewhere")
    OfficialFactory(user=outsider, role=Official.Role.ORGANISER)  # another tournament
    return Crew(table, tournament, referee, other, head, organiser, outsider)


# A tiny known deal (JDF-T17): seat 1 fouls with a 2, seat 2 with a joker, seat 3 wins.
T17_HANDS = [["5D", "9C"], ["2C"], ["JK"], ["6H"]]
T17_MOVES = [
    {"seat": 0, "play": ["5D"]},
    {"seat": 1, "play": ["2C"]},
    {"seat": 2, "play": ["JK"]},
    {"seat": 3, "pass": True},
    {"seat": 0, "pass": True},
    {"seat": 3, "play": ["6H"]},
]


@pytest.fixture
def t17_game(crew: Crew) -> Game:
    game: Game = GameFactory(table=crew.table, game_number=1, hands=T17_HANDS, leader=0)
    return game
