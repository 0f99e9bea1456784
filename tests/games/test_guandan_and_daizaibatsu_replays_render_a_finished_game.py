"""The replay viewer serves every family: a finished 掼蛋 (Guandan) hand shows both teams'
levels and the hand's moves in Guandan words; a finished 大財閥 game shows its table (direction
of play, 山札) and its moves. Before the round is revealed neither shows a hidden hand."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.factories import (
    UserFactory,
    console_guandan_hand,
    console_guandan_table,
    daizaibatsu_game,
    daizaibatsu_table,
    play_guandan_hand,
    play_to_the_end,
    reveal,
)

pytestmark = pytest.mark.django_db


def test_a_guandan_hand_replays_with_the_levels(client: Client) -> None:
    referee = UserFactory(username="ref-gd-replay")
    table = console_guandan_table(referee, teams=("East", "South"))
    game = console_guandan_hand(table)
    played = play_guandan_hand(game, referee)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    html = client.get(f"/games/{game.pk}/replay/?move=1").content.decode()

    assert "Move 1 of" in html and f"?move={played}" in html
    assert "Level 2" in html and "Level played: 2" in html
    assert 'data-testid="replay-hand-' not in html  # not revealed: no hand

    last = client.get(f"/games/{game.pk}/replay/?move={played}").content.decode()
    assert "first out" in last  # 头游, in the placings so far

    reveal(table.round)
    shown = client.get(f"/games/{game.pk}/replay/?move=1").content.decode()
    assert shown.count('data-testid="replay-hand-') == 4


def test_a_daizaibatsu_game_replays_its_table(client: Client) -> None:
    referee = UserFactory(username="ref-dz-replay")
    table = daizaibatsu_table(referee)
    game = daizaibatsu_game(
        table,
        [["9H", "2S", "5D"], ["JK", "6C"], ["8D", "TD"], ["3C", "AH"]],
        ["3H", "3S", "4S", "5H", "5C", "6D"],
        leader=0,
    )
    played = play_to_the_end(game, referee)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    html = client.get(f"/games/{game.pk}/replay/?move=1").content.decode()

    assert f"Move 1 of {played}" in html
    assert 'data-testid="dz-pile"' in html and 'data-testid="dz-direction"' in html
    assert "Aoki played" in html
    assert 'data-testid="replay-hand-' not in html  # no hand opened by a 6 at move 1

    reveal(table.round)
    shown = client.get(f"/games/{game.pk}/replay/?move=1").content.decode()
    assert shown.count('data-testid="replay-hand-') == 4
