"""The database itself refuses entries that would break a tournament's invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_player_enters_a_tournament_once() -> None:
    entry = EntryFactory()

    with pytest.raises(IntegrityError):
        EntryFactory(tournament=entry.tournament, player=entry.player)


def test_entry_numbers_are_unique_within_a_tournament() -> None:
    entry = EntryFactory(number=7)

    with pytest.raises(IntegrityError):
        EntryFactory(tournament=entry.tournament, player=PlayerFactory(), number=7)


def test_the_same_number_may_be_used_in_another_tournament() -> None:
    EntryFactory(number=7)

    EntryFactory(tournament=TournamentFactory(), number=7)


def test_a_tournament_pins_a_ruleset() -> None:
    with pytest.raises(IntegrityError):
        TournamentFactory(ruleset_id="")
