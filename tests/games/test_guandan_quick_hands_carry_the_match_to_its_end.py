"""Quick Guandan hands (the finishing order only) carry the match from hand to hand through
the engine, and the match ends as the tournament says: won at A, all hands played, or the
time limit passed (the hand in play still finishes, no new one starts)."""

from __future__ import annotations

import datetime

import pytest

from games import services
from games.matches import table_match
from games.models import Game
from tests.factories import UserFactory, guandan_table
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

QUICK = Game.Mode.QUICK


def test_one_two_finishes_climb_two_five_eight_jack_ace_and_win_at_ace() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    levels = []
    for _ in range(4):
        game = services.start_game(table, referee, mode=QUICK)
        services.record_quick_result(game, referee, [0, 2])
        levels.append(game.results.get(seat=0).detail["team_level"])
    assert levels == ["5", "8", "J", "A"]

    fifth = services.start_game(table, referee, mode=QUICK)
    assert fifth.match == {"levels": ["A", "2"], "failures": [0, 0], "previous": [0, 2, 3, 1]}
    services.record_quick_result(fifth, referee, [2, 0])
    assert all(r.detail["match_won"] for r in fifth.results.filter(team=0))
    assert table_match(table.pk).winner == 0

    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee, mode=QUICK)
    assert refused.value.code == "match_over"
    assert "won it at A" in refused.value.message_en
    assert "Aで勝った" in refused.value.message_ja
    assert table.games.count() == 5


def test_the_losing_team_climbs_by_its_own_finish() -> None:
    referee = UserFactory()
    table = guandan_table(referee)
    first = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(first, referee, [1, 0, 3])  # 1-3 for team 1: +2

    second = services.start_game(table, referee, mode=QUICK)
    assert second.match == {"levels": ["2", "4"], "failures": [0, 0], "previous": [1, 0, 3, 2]}
    services.record_quick_result(second, referee, [0, 1, 3, 2])  # 1-4 for team 0: +1
    assert second.results.get(seat=0).detail["team_level"] == "3"
    assert [r.place for r in second.results.order_by("place")] == [1, 2, 3, 4]


def test_a_fixed_number_of_hands_ends_the_match() -> None:
    referee = UserFactory()
    table = guandan_table(referee, games_per_set=2, match_length=Tournament.MatchLength.HANDS)
    for _ in range(2):
        game = services.start_game(table, referee, mode=QUICK)
        services.record_quick_result(game, referee, [1, 3])

    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee, mode=QUICK)
    assert refused.value.code == "match_over"
    assert "all its 2 hands" in refused.value.message_en
    assert services.next_game_fields(table)[1]["code"] == "match_over"  # type: ignore[index]


def test_after_the_time_limit_the_hand_in_play_finishes_and_no_new_hand_starts() -> None:
    referee = UserFactory()
    table = guandan_table(referee, match_length=Tournament.MatchLength.TIME, match_minutes=30)
    first = services.start_game(table, referee, mode=QUICK)
    services.record_quick_result(first, referee, [0, 2])
    second = services.start_game(table, referee, mode=QUICK)
    long_ago = first.created_at - datetime.timedelta(minutes=31)
    Game.objects.filter(pk=first.pk).update(created_at=long_ago)

    services.record_quick_result(second, referee, [1, 3])  # the hand in play still counts

    with pytest.raises(services.GameError) as refused:
        services.start_game(table, referee, mode=QUICK)
    assert refused.value.code == "match_over"
    assert "time (30 minutes) is up" in refused.value.message_en
    assert table_match(table.pk).hands == 2
