"""Shared set-up for the tournament domain tests: an organiser running a tournament (or a
掼蛋 Guandan team event)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import (
    EntryFactory,
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry, Official, Stage, Tournament


@pytest.fixture
def organiser() -> User:
    return UserFactory(username="organiser-a")


@pytest.fixture
def tournament(organiser: User) -> Tournament:
    cup = TournamentFactory(name="Nagoya Open", slug="nagoya-open")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    return cup


@pytest.fixture
def head_referee(tournament: Tournament) -> User:
    """A second official: confirms what the organiser records."""
    user = UserFactory(username="head-referee-a")
    OfficialFactory(tournament=tournament, user=user, role=Official.Role.HEAD_REFEREE)
    return user


@pytest.fixture
def stage(tournament: Tournament) -> Stage:
    return StageFactory(tournament=tournament, order=1, name="Qualifying")


def checked_in(tournament: Tournament, count: int, start: int = 1) -> list[Entry]:
    return [
        EntryFactory(
            tournament=tournament,
            number=number,
            player__display_name=f"Player {number}",
            status=Entry.Status.CHECKED_IN,
        )
        for number in range(start, start + count)
    ]


# --- team events (掼蛋 Guandan) ---


@pytest.fixture
def event(organiser: User) -> Tournament:
    """A Guandan team event that `organiser` runs."""
    cup = GuandanTournamentFactory(name="Kansai Guandan Cup", slug="kansai-guandan")
    OfficialFactory(tournament=cup, user=organiser, role=Official.Role.ORGANISER)
    return cup
