"""千日手 (`stalemate_passes`, REFERENCE §4.1 rule 18, §4.2 D3): that many passes in a row end
the game, and the seats still in it take the places left in an order drawn from the game."""

from __future__ import annotations

import json

import pytest

from games.engine import DAIFUGO, Move, RulesError, legal_moves, new_game, restore, snapshot
from games.engine.core import PASS_STEPS, PLAY_STEPS
from games.engine.deal import stalemate_order, stalemate_seed
from games.engine.record import export_record, replay
from games.engine.rules import GEKIJO, JDF, LOCAL, UECDA

from .helpers import Table

HANDS = ["9C 4C", "5C", "6C", "7C", "TC"]


def _stalemated(limit: int = 20) -> Table:
    t = Table(HANDS, rules=UECDA.with_overrides(stalemate_passes=limit))
    for i in range(limit - 1):
        t.pass_(i % 5)
    return t


def test_the_nth_pass_in_a_row_ends_the_game():
    t = _stalemated(20)
    assert not t.state.is_over
    kinds = t.pass_(4)
    assert kinds == ["passed", "trick_cleared", "stalemate", "game_over"]
    stalemate = t.events[2].to_dict()
    assert stalemate["passes"] == 20 and sorted(stalemate["seats"]) == [0, 1, 2, 3, 4]
    assert t.state.is_over and list(legal_moves(t.state)) == []
    placings = t.state.placings()
    assert [p.seat for p in placings] == list(t.state.stalemate)
    assert [p.place for p in placings] == [1, 2, 3, 4, 5]
    assert all(p.stalemate and p.to_dict()["stalemate"] is True for p in placings)
    t.reject(Move.pass_turn(0), "game_over")


def test_the_draw_is_the_documented_one_and_every_replay_agrees():
    t = _stalemated(20)
    t.pass_(4)
    setup = t.state.setup
    seed = stalemate_seed(setup.hands, setup.blind, setup.titles, 0, t.state.counts)
    # 9C 4C = bits 27 and 7, 5C = 11, 6C = 15, 7C = 19, TC = 31
    text = "deal=8000080,800,8000,80000,80000000;blind=?;titles=;played=0;counts=2,1,1,1,1"
    assert seed == text.encode()
    assert t.state.stalemate == stalemate_order(seed, range(5))
    moves = [Move.pass_turn(i % 5) for i in range(20)]
    record = json.loads(json.dumps(export_record(new_game(setup.rules, HANDS, leader=0), moves)))
    again = replay(record)
    assert again.state == t.state
    assert again.to_dict()["placings"] == [p.to_dict() for p in t.state.placings()]


def test_finishers_keep_their_places_and_only_drawn_seats_are_marked():
    rules = UECDA.with_overrides(stalemate_passes=6)
    t = Table(["9C", "5C 6D", "7C", "TC 3H", "QC"], rules=rules)
    t.play(0, "9C")
    for seat in (1, 2, 3, 4, 1):
        t.pass_(seat)
    assert t.pass_(2) == ["passed", "stalemate", "game_over"]
    results = DAIFUGO.outcome(t.state)
    assert results is not None
    assert results[0].seat == 0 and "stalemate" not in results[0].detail
    assert [r.detail.get("stalemate") for r in results[1:]] == [True] * 4
    assert sorted(r.seat for r in results[1:]) == [1, 2, 3, 4]
    assert [r.points for r in results] == [5, 4, 3, 2, 1]


def test_a_play_restarts_the_count():
    rules = UECDA.with_overrides(stalemate_passes=5)
    t = Table(["5H 9C", "6C TD", "8D JD", "QD KD", "7H AD"], rules=rules)
    t.play(0, "5H")
    for seat in (1, 2, 3):
        t.pass_(seat)
    t.play(4, "7H")
    assert t.state.pass_run == 0
    for seat in (0, 4, 0, 1):
        t.pass_(seat)
    assert t.state.pass_run == 4 and not t.state.is_over
    assert "stalemate" in t.pass_(2)


def test_a_stalemated_state_survives_a_snapshot():
    t = _stalemated(20)
    t.pass_(4)
    assert restore(t.state.setup, json.loads(json.dumps(snapshot(t.state)))) == t.state


@pytest.mark.parametrize("rules", [JDF, GEKIJO, LOCAL, UECDA], ids=lambda r: r.key)
def test_off_in_every_preset_and_without_a_step(rules):
    assert rules.stalemate_passes == 0
    setup = new_game(rules, ["3D 5H", "4H 6C", "7S 9D", "8H TD", "QC"][: rules.seats]).setup
    names = [s.name for s in PLAY_STEPS if s.run in setup.play_steps]
    names += [s.name for s in PASS_STEPS if s.run in setup.pass_steps]
    assert "stalemate" not in names and "stalemate_count" not in names


def test_off_means_no_limit():
    t = Table(HANDS, rules=UECDA)
    for i in range(100):
        t.pass_(i % 5)
    assert not t.state.is_over


def test_switch_values():
    assert UECDA.with_overrides(stalemate_passes=None).stalemate_passes == 0
    assert UECDA.with_overrides(stalemate_passes=20).to_record() == {
        "preset": "uecda@1",
        "overrides": {"stalemate_passes": 20},
    }
    for bad in (1, -1, True, "20", 1001):
        with pytest.raises(RulesError):
            UECDA.with_overrides(stalemate_passes=bad)
