"""Presets without cycles (JDF, and every tournament created before cycles existed) play a set
as they always did: the table as drawn for every game, titles carried from game to game."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Game
from games.seating import positions_of
from tests.factories import GameFactory, UserFactory, cycling_table, play_quick_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db: None) -> User:
    return UserFactory(username="ref-jdf")


def test_a_jdf_set_never_changes_seats_nor_resets_titles(referee: User) -> None:
    table = cycling_table(
        referee,
        ruleset_id="jdf",
        title_reset_every=None,
        seat_change_every=None,
        games_per_set=8,
        names=("Aoki", "Baba", "Chiba", "Doi"),
    )

    games = play_quick_games(table, referee, 8)

    assert [g.seating for g in games] == [[1, 2, 3, 4]] * 8
    assert games[0].titles is None
    assert all(g.titles == ["daifugo", "fugo", "hinmin", "daihinmin"] for g in games[1:])
    for game in games:
        results = Game.objects.get(pk=game.pk).results.select_related("entry")
        assert all(r.entry.number == r.seat + 1 for r in results)


def test_a_game_started_before_seatings_were_stored_keeps_todays_mapping(referee: User) -> None:
    table = cycling_table(referee, ruleset_id="jdf", title_reset_every=None, seat_change_every=None)
    old = GameFactory(table=table, game_number=1, seats=5, mode=Game.Mode.QUICK, hands=[None] * 5)
    assert old.seating is None

    services.record_quick_result(old, referee, [4, 3, 2, 1, 0])

    assert positions_of(old) == (1, 2, 3, 4, 5)
    first = old.results.select_related("entry").get(place=1)
    assert (first.seat, first.entry.number) == (4, 5)
