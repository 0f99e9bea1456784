"""An open-table game (hands dealt physically, unknown to the engine) asks who leads whenever
the opening card may be in any hand: the first game of a set under every preset, and every
game under the presets that look for the opening card each game (gekijo, local, uecda)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game

from .conftest import Crew

pytestmark = pytest.mark.django_db


def second_game_of_a_set(crew: Crew, ruleset: str) -> None:
    crew.tournament.ruleset_id = ruleset
    crew.tournament.save()
    first = services.start_game(crew.table, crew.referee, mode=Game.Mode.QUICK)
    services.record_quick_result(first, crew.referee, [0, 1, 2, 3])


def test_a_first_open_table_game_needs_its_leader(crew: Crew) -> None:
    with pytest.raises(services.GameError) as refused:
        services.start_game(crew.table, crew.referee, mode=Game.Mode.OPEN_TABLE)

    assert refused.value.code == "leader_required"
    assert "開始カード" in refused.value.message_ja
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.OPEN_TABLE, leader=2)
    assert game.leader == 2


@pytest.mark.parametrize("ruleset", ["gekijo", "local", "uecda"])
def test_a_later_open_table_game_asks_its_leader_where_the_opening_card_counts_every_game(
    crew: Crew, ruleset: str
) -> None:
    second_game_of_a_set(crew, ruleset)

    with pytest.raises(services.GameError) as refused:
        services.start_game(crew.table, crew.referee, mode=Game.Mode.OPEN_TABLE)
    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.OPEN_TABLE, leader=1)

    assert refused.value.code == "leader_required"
    assert (game.game_number, game.leader) == (2, 1)


def test_under_jdf_the_previous_daihinmin_leads_a_later_game(crew: Crew) -> None:
    second_game_of_a_set(crew, "jdf")

    game = services.start_game(crew.table, crew.referee, mode=Game.Mode.OPEN_TABLE)

    assert game.game_number == 2 and game.leader is None
