"""`last_player_may_follow` (REFERENCE §4.1 rule 13): the trick flows only once every player
still in the game, the last player included, has passed; off in JDF, gekijo, local, uecda@1."""

from __future__ import annotations

import pytest

from games.engine import Move, legal_moves, new_game
from games.engine.core import PASS_STEPS, PLAY_STEPS
from games.engine.rules import GEKIJO, JDF, LOCAL, UECDA

from .helpers import Table

FOLLOW = UECDA.with_overrides(last_player_may_follow=True)
HANDS = ["5H 7H 4H 9C", "6C", "TC", "JC", "QC"]


def test_the_turn_comes_back_to_the_last_player_when_all_others_pass():
    t = Table(HANDS, rules=FOLLOW)
    t.play(0, "5H")
    for seat in (1, 2, 3, 4):
        assert t.pass_(seat) == ["passed"]
    assert t.turn == 0 and t.view["table"]["cards"] == ["5H"]
    moves = list(legal_moves(t.state))
    assert Move.pass_turn(0) in moves
    assert {m.cards for m in moves if not m.is_pass} == {
        Move.play(0, "7H").cards,
        Move.play(0, "9C").cards,
    }
    t.reject_play(0, "4H", "not_stronger")


def test_following_their_own_play_can_lock_and_their_pass_flows_the_trick():
    t = Table(HANDS, rules=FOLLOW)
    t.play(0, "5H")
    for seat in (1, 2, 3, 4):
        t.pass_(seat)
    assert t.play(0, "7H") == ["played", "lock_started"]
    assert t.view["lock"] == ["H"] and t.turn == 0
    assert t.pass_(0) == ["passed", "trick_cleared"]
    assert t.turn == 0 and t.view["lock"] == []


def test_the_last_player_leads_after_the_flow_or_the_next_seat_when_out():
    t = Table(["5H 9H", "7C 8S", "TC", "JC", "QC"], rules=FOLLOW)
    t.play(0, "5H")
    t.play(1, "7C")
    for seat in (2, 3, 4, 0):
        assert t.pass_(seat) == ["passed"]
    assert t.turn == 1
    assert t.pass_(1) == ["passed", "trick_cleared"]
    assert t.turn == 1
    out = Table(["5H 7H", "6C 9C", "TC", "JC", "QC"], rules=FOLLOW)
    out.play(0, "5H")
    for seat in (1, 2, 3, 4):
        out.pass_(seat)
    assert out.play(0, "7H") == ["played", "lock_started", "finished", "trick_cleared"]
    assert out.turn == 1


@pytest.mark.parametrize("rules", [JDF, GEKIJO, LOCAL, UECDA], ids=lambda r: r.key)
def test_off_in_the_presets_pinned_before_it(rules):
    assert not rules.last_player_may_follow
    setup = new_game(rules, ["3D 5H", "4H 6C", "7S 9D", "8H TD", "QC"][: rules.seats]).setup
    names = [s.name for s in PLAY_STEPS if s.run in setup.play_steps]
    names += [s.name for s in PASS_STEPS if s.run in setup.pass_steps]
    assert "trick_end" in names and "pass_turn" in names
    assert "trick_end_last_follows" not in names and "pass_turn_last_follows" not in names


def test_uecda_1_flows_when_the_others_have_passed():
    t = Table(HANDS, rules=UECDA)
    t.play(0, "5H")
    for seat in (1, 2, 3):
        t.pass_(seat)
    assert t.pass_(4) == ["passed", "trick_cleared"]
