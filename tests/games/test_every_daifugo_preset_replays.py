"""Every 大富豪 preset's finished games replay from the deal to the last move: jdf, gekijo,
local and uecda (five seats, its seeded seat changes), each position answering with the board."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game, Move
from tests.factories import (
    OfficialFactory,
    UserFactory,
    cycling_table,
    play_to_the_end,
    seated_table,
)
from tournaments.models import Official, Table

pytestmark = pytest.mark.django_db


def table_for(ruleset_id: str, referee: object) -> Table:
    if ruleset_id == "uecda":
        return cycling_table(referee)
    table = seated_table(referee, stage__tournament__ruleset_id=ruleset_id)
    OfficialFactory(
        tournament=table.round.stage.tournament, user=referee, role=Official.Role.REFEREE
    )
    return table


@pytest.mark.parametrize("ruleset_id", ["jdf", "gekijo", "local", "uecda"])
def test_a_finished_game_replays_every_move(client: Client, ruleset_id: str) -> None:
    referee = UserFactory(username=f"ref-{ruleset_id}")
    table = table_for(ruleset_id, referee)
    game = services.start_game(table, referee)
    play_to_the_end(game, referee)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    total = game.moves.filter(kind=Move.Kind.ACTION).count()

    for n in [*range(0, total, 6), total]:
        html = client.get(f"/games/{game.pk}/replay/?move={n}").content.decode()
        assert html.count('data-testid="replay-seat-') == game.seats, n
    assert f"Move {total} of {total}" in html
    assert 'data-testid="replay-placings"' in html
