"""A snapshot restores exactly the state it was taken of, through JSON, for every preset."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    JDF,
    Move,
    SnapshotError,
    State,
    apply,
    deal,
    find_ruleset,
    legal_moves,
    new_game,
    restore,
    snapshot,
)

PRESETS = ["jdf", "gekijo@1", "gekijo", "local", "uecda@1", "uecda"]
TITLES4 = ["daifugo", "fugo", "hinmin", "daihinmin"]


def through_json(state: State) -> State:
    return restore(state.setup, json.loads(json.dumps(snapshot(state))))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_every_state_of_a_random_game_survives_a_json_snapshot(preset: str, seed: int) -> None:
    rules = find_ruleset(preset)
    rng = random.Random(seed)
    d = deal(seed, rules)
    titles = TITLES4 if rules.seats == 4 and seed % 2 else None  # half with an exchange
    state = new_game(rules, list(d.hands), blind=d.blind, titles=titles)
    steps = 0
    while not state.is_over:
        assert through_json(state) == state
        state, _ = apply(state, rng.choice(list(legal_moves(state))))
        steps += 1
    assert through_json(state) == state
    assert steps > 10


def test_a_restored_state_plays_on_like_the_original() -> None:
    state = new_game(JDF, ["3S 5D 9C", "4H 6C TD", "7S 9D JH", "8H TC QS"])
    state, _ = apply(state, Move.play(0, "3S"))

    original, original_events = apply(state, Move.play(1, "4H"))
    restored, restored_events = apply(through_json(state), Move.play(1, "4H"))

    assert restored == original
    assert restored_events == original_events


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("turn"),  # a field missing (a snapshot of an older engine)
        lambda d: d.update(extra=1),  # a field unknown to this engine
        lambda d: d.update(turn="1"),  # wrong type
        lambda d: d.update(revolution=0),  # an int is not a bool here
        lambda d: d.update(counts=[13, 13]),  # another number of seats
        lambda d: d.update(table=[1, 2]),  # a combination of the wrong shape
    ],
)
def test_a_damaged_snapshot_is_refused_with_a_code(damage) -> None:
    state = new_game(JDF, ["3S 5D", "4H 6C", "7S 9D", "8H TD"])
    state, _ = apply(state, Move.play(0, "3S"))
    data = json.loads(json.dumps(snapshot(state)))
    damage(data)

    with pytest.raises(SnapshotError) as error:
        restore(state.setup, data)
    assert error.value.code == "snapshot_invalid"


def test_a_snapshot_is_not_a_list_or_anything_else() -> None:
    state = new_game(JDF, ["3S", "4H", "7S", "8H"])
    for junk in (None, [], "state", 3):
        with pytest.raises(SnapshotError):
            restore(state.setup, junk)
