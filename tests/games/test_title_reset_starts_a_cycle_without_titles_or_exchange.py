"""UECda 階級リセット: the game that starts a new title cycle within a set is played like a
set's first game: no titles carried over, so no card exchange; the cycle after it carries
titles again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.engine import PHASE_EXCHANGE, PHASE_PLAY
from games.models import Game
from tests.factories import UserFactory, cycling_table, play_quick_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db: None) -> User:
    return UserFactory(username="ref-reset")


def test_the_game_after_a_title_reset_has_no_titles_and_no_exchange(referee: User) -> None:
    table = cycling_table(referee, title_reset_every=3, seat_change_every=None)
    played = play_quick_games(table, referee, 3)

    reset = services.start_game(table, referee)

    assert [g.titles is None for g in played] == [True, False, False]
    assert reset.game_number == 4
    assert reset.titles is None
    state = services.current_state(reset)
    assert state.phase == PHASE_PLAY and state.phase != PHASE_EXCHANGE


def test_titles_carry_over_again_after_the_reset(referee: User) -> None:
    table = cycling_table(referee, title_reset_every=2, seat_change_every=None, games_per_set=5)

    games = play_quick_games(table, referee, 5)

    assert [g.titles is None for g in games] == [True, False, True, False, True]
    second = Game.objects.get(pk=games[1].pk)
    assert second.titles == ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]


def test_a_known_deal_game_carrying_titles_starts_with_the_exchange(referee: User) -> None:
    # The contrast: without a reset, the second game of a set opens with the card exchange.
    table = cycling_table(referee, title_reset_every=3, seat_change_every=None)
    play_quick_games(table, referee, 1)

    carried = services.start_game(table, referee)

    assert carried.titles is not None
    assert services.current_state(carried).phase == PHASE_EXCHANGE


def test_the_console_says_the_titles_reset(referee: User) -> None:
    from tests.factories import browser

    table = cycling_table(referee, title_reset_every=3, seat_change_every=None)
    play_quick_games(table, referee, 3)
    client = browser("ja")
    client.force_login(referee)

    before = client.get(f"/referee/tables/{table.pk}/").content.decode()
    services.start_game(table, referee)
    during = client.get(f"/referee/tables/{table.pk}/").content.decode()

    assert 'data-testid="next-title-reset"' in before and "階級リセット" in before
    assert 'data-testid="title-reset"' in during
