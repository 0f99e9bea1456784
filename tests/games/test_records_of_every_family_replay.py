"""`game_record` writes a finished game of every family so the engine replays it to the
service's placings: a 掼蛋 hand after a tribute (its `match` as the service started it) and a
大財閥 game (hands and draw pile). Their public records hold no hand and no private card: a
掼蛋 hand's public record has its hands null, which the engine cannot read (a 掼蛋 hand has no
open table), and the card given back in the tribute counted; a 大財閥 public record has no
pile nor deal seed."""

from __future__ import annotations

import pytest

from games import services
from games.engine.errors import RecordError
from games.engine.record import replay, replay_any
from games.models import Game
from games.records import game_record, replays_to_the_end
from tests.factories import (
    UserFactory,
    daizaibatsu_game,
    daizaibatsu_table,
    guandan_table,
    play_guandan_hand,
    play_to_the_end,
)

pytestmark = pytest.mark.django_db


def placings(record: dict[str, object]) -> dict[int, int]:
    return {p["seat"]: p["place"] for p in replay(record).to_dict()["placings"]}  # type: ignore[index]


def services_placings(game: Game) -> dict[int, int]:
    return dict(game.results.values_list("seat", "place"))


def test_a_guandan_hand_after_a_tribute_replays_and_its_public_record_hides_the_return() -> None:
    referee = UserFactory()
    table = guandan_table(referee, seed="b3" * 32)
    play_guandan_hand(services.start_game(table, referee), referee, favoured=0)
    second = services.start_game(table, referee)  # the losers owe a tribute
    play_guandan_hand(second, referee, favoured=1)
    second.refresh_from_db()

    record = game_record(second, hands=True)

    assert record["match"] == second.match
    assert any("tribute" in move for move in record["moves"])  # type: ignore[union-attr]
    assert replays_to_the_end(record)
    assert placings(record) == services_placings(second)

    public = game_record(second, hands=False)
    assert public["hands"] == [None] * 4 and public["counts"] == [27] * 4
    returns = [m for m in public["moves"] if "return" in m]  # type: ignore[union-attr]
    assert returns and all(m["return"] == 1 for m in returns)
    with pytest.raises(RecordError):
        replay_any(public)
    assert not replays_to_the_end(public)


def test_a_daizaibatsu_game_replays_from_its_hands_and_pile() -> None:
    referee = UserFactory()
    table = daizaibatsu_table(referee)
    game = daizaibatsu_game(
        table,
        [["4S", "9H", "5C"], ["5D", "6D", "4C"], ["6C", "9C", "4D"], ["TH", "JH", "5S"]],
        ["3H", "3S", "4H", "5H", "6H", "6S", "7D", "8D", "9D", "9S", "TC", "TD"],
        leader=0,
    )
    play_to_the_end(game, referee)
    game.refresh_from_db()

    record = game_record(game, hands=True)

    assert record["pile"] == game.pile
    assert replays_to_the_end(record)
    assert placings(record) == services_placings(game)

    public = game_record(game, hands=False)
    assert public["hands"] == [None] * 4
    assert "pile" not in public and "seed" not in public
