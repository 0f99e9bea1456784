"""プンリー (`misplay`, REFERENCE §2.1 rule 13, §2.2 B10): a misplay the referee records leaves
the cards with the offender, exposed face up to everyone, playable later; the turn stays."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    DAIFUGO,
    IllegalMove,
    Move,
    RecordError,
    apply,
    legal_moves,
    new_game,
    observe,
    restore,
    snapshot,
)
from games.engine.record import export_record, load_record, replay
from games.engine.rules import GEKIJO, JDF, UECDA

from .helpers import Table

MISPLAY = GEKIJO.with_overrides(misplay=True)
HANDS = ["3D 5S 9H", "4S 7H KD", "6C TC", "JC QC"]


def test_a_misplay_exposes_the_cards_and_changes_nothing_else():
    t = Table(HANDS, rules=MISPLAY, leader=None)
    t.play(0, "3D")
    before = t.state
    assert t._do(Move.misplayed(1, "7H KD")) == ["misplay"]
    assert t.events[0].to_dict() == {"kind": "misplay", "seat": 1, "cards": ["7H", "KD"]}
    after = t.state
    assert after.exposed == (0, Move.play(1, "7H KD").cards, 0, 0)
    assert after.hands == before.hands and after.counts == before.counts
    assert after.turn == before.turn == 1 and after.table == before.table
    assert list(legal_moves(after)) == list(legal_moves(before))
    for viewer in (None, 0, 1, 2, 3):
        assert observe(after, viewer)["exposed"] == {"1": ["7H", "KD"]}
    assert observe(before, None)["exposed"] == {}


def test_exposed_cards_are_played_later_and_then_no_longer_exposed():
    t = Table(HANDS, rules=MISPLAY, leader=None)
    t.play(0, "3D")
    t._do(Move.misplayed(2, "6C"))
    t.play(1, "4S")
    assert t.view["exposed"] == {"2": ["6C"]}
    t.play(2, "6C")
    assert t.view["exposed"] == {} and t.state.exposed == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (Move.misplayed(1, "9H"), "misplay_invalid"),  # P1 holds it
        (Move.misplayed(1, 0), "misplay_invalid"),  # no cards
        (Move(1, Move.play(1, "7H").cards, is_pass=True, misplay=True), "misplay_invalid"),
        (Move(1, Move.play(1, "7H").cards, respond=True, misplay=True), "misplay_invalid"),
    ],
)
def test_bad_misplays_are_refused_and_change_nothing(move, code):
    t = Table(HANDS, rules=MISPLAY, leader=None)
    t.play(0, "3D")
    error = t.reject(move, code)
    assert error.message_ja


def test_cards_already_exposed_or_a_seat_out_cannot_be_misplayed():
    t = Table(["3D", "4S 7H KD", "6C TC", "JC QC"], rules=MISPLAY, leader=None)
    t._do(Move.misplayed(1, "7H"))
    t.reject(Move.misplayed(1, "7H KD"), "misplay_invalid")
    t.play(0, "3D")  # out
    t.reject(Move.misplayed(0, "3D"), "misplay_invalid")


@pytest.mark.parametrize("rules", [JDF, GEKIJO, UECDA], ids=lambda r: r.key)
def test_off_the_misplay_is_not_allowed(rules):
    hands = ["3D 3S 5S", "4S 7H", "6C TC", "JC QC", "KC"][: rules.seats]
    state = new_game(rules, hands, leader=0)
    with pytest.raises(IllegalMove) as info:
        apply(state, Move.misplayed(1, "7H"))
    assert info.value.code == "misplay_not_allowed"
    assert info.value.message_en and info.value.message_ja


def test_records_carry_misplays():
    state = new_game(MISPLAY, HANDS)
    moves = [Move.play(0, "3D"), Move.misplayed(1, "7H KD"), Move.play(1, "4S")]
    record = json.loads(json.dumps(export_record(state, moves)))
    assert record["moves"][1] == {"seat": 1, "misplay": ["7H", "KD"]}
    loaded = load_record(record)
    assert list(loaded.moves) == moves
    assert all(v.ok for v in replay(loaded).moves)
    assert DAIFUGO.move_from_json({"seat": 1, "misplay": "7h kd"}, "move", 4) == moves[1]
    assert DAIFUGO.move_to_json(moves[1]) == {"seat": 1, "misplay": ["7H", "KD"]}
    for bad in (
        {"seat": 1, "misplay": []},
        {"seat": 1, "misplay": ["7H"], "play": ["7H"]},
        {"seat": 1, "misplay": ["7H"], "respond": True},
        {"seat": 1, "misplay": ["ZZ"]},
        {"seat": 1, "misplay": 7},
    ):
        with pytest.raises(RecordError):
            DAIFUGO.move_from_json(bad, "move", 4)


def test_a_state_with_exposed_cards_survives_a_snapshot_and_older_snapshots_are_refused():
    state = new_game(MISPLAY, HANDS)
    state, _ = apply(state, Move.play(0, "3D"))
    state, _ = apply(state, Move.misplayed(1, "7H"))
    data = json.loads(json.dumps(snapshot(state)))
    assert data["exposed"] == [0, Move.play(1, "7H").cards, 0, 0]
    assert restore(state.setup, data) == state
    old = {k: v for k, v in data.items() if k not in ("exposed", "pass_run", "stalemate")}
    with pytest.raises(Exception) as info:
        restore(state.setup, old)
    assert getattr(info.value, "code", None) == "snapshot_invalid"


def test_a_misplayed_joker_is_the_seat_s_joker():
    rules = GEKIJO.with_overrides(misplay=True, jokers=2)
    t = Table(["3D 5S", "4S JK", "6C JK", "JC QC"], rules=rules, leader=None)
    t._do(Move.misplayed(2, "JK"))
    assert t.state.exposed[2] == t.state.hands[2] & (3 << 52)
    t.reject(Move.misplayed(2, "JK"), "misplay_invalid")  # its only joker is exposed already
    t._do(Move.misplayed(1, "JK"))
    assert t.view["exposed"] == {"1": ["JK"], "2": ["JK"]}


def test_an_open_table_seat_may_misplay_cards_nobody_else_is_known_to_hold():
    rules = GEKIJO.with_overrides(misplay=True)
    state = new_game(rules, ["3D 5S 9H", None, "6C TC", "JC QC"], counts=[3, 3, 2, 2], leader=0)
    state, _ = apply(state, Move.play(0, "3D"))
    for move in (
        Move.misplayed(1, "9H"),
        Move.misplayed(1, "3D"),
        Move.misplayed(1, "7H 8H KD 2S"),
    ):
        with pytest.raises(IllegalMove) as info:  # held by seat 0, played, more than it holds
            apply(state, move)
        assert info.value.code == "misplay_invalid"
    state, _ = apply(state, Move.misplayed(1, "7H KD"))
    assert observe(state, None)["exposed"] == {"1": ["7H", "KD"]}
    with pytest.raises(IllegalMove):
        apply(state, Move.misplayed(1, "2S 2H"))  # only one unexposed card is left to it
    state, _ = apply(state, Move.play(1, "7H"))
    assert observe(state, None)["exposed"] == {"1": ["KD"]}
