"""Revolution (革命, JDF §10), A9 in revolution."""

from __future__ import annotations

from games.engine import JDF, parse_cards

from .helpers import Table


def test_jdf_t04_revolution_with_a_joker_then_counter_revolution():
    t = Table(["6S 6H 6D JK 4C", "5S 5H 5D 5C 9C", "7S 7H 7D 7C TC", "8D 9D"], leader=0)
    assert t.play(0, "6S 6H 6D JK")[:2] == ["played", "revolution"]
    assert t.state.revolution is True
    assert t.play(1, "5S 5H 5D 5C")[:2] == ["played", "revolution"]  # 5 beats 6 reversed
    assert t.state.revolution is False
    assert t.play(2, "7S 7H 7D 7C")[:2] == ["played", "revolution"]
    assert t.state.revolution is True
    assert [e.to_dict()["on"] for e in t.events if e.kind == "revolution"] == [True]


def test_jdf_t18_eight_quad_revolution_and_cut_together():
    t = Table(["8S 8H 8D 8C 4C", "5C 6C", "7D 9D", "9H TH"], leader=0)
    assert t.play(0, "8S 8H 8D 8C") == ["played", "revolution", "eight_cut", "trick_cleared"]
    assert t.state.revolution and t.turn == 0 and t.state.table is None


def test_jdf_t19_revolution_does_not_move_the_joker():
    t = Table(["3S 9C", "JK TC", "4S 4H 4D 4C 6D KH", "7H 8H"], leader=2)
    t.play(2, "4S 4H 4D 4C")
    for seat in (3, 0, 1):
        t.pass_(seat)
    t.play(2, "6D")
    t.pass_(3)
    t.play(0, "3S")  # 3 beats 6 in reversed order
    assert t.play(1, "JK") == ["played"]


def test_a9_joker_stairs_reading_in_revolution():
    t = Table(["9S 9H 9D 9C 4D 5D JK KC", "4S 5S 6S 2C", "8H 7H", "TH JH"], leader=0)
    t.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3):
        t.pass_(seat)
    t.play(0, "4D 5D JK")
    assert t.state.table.as_cards == parse_cards("3D")
    t.reject_play(1, "4S 5S 6S", "not_stronger")


def test_stairs_never_revolutionise():
    t = Table(["3S 4S 5S 6S 7S 8S 9C", "5H", "5D", "5C"], leader=0, counts=None)
    assert t.play(0, "3S 4S 5S 6S 7S 8S") == ["played"]
    assert not t.state.revolution


def test_revolution_set_size_switch():
    t = Table(
        ["6S 6H 6D 6C 4C", "5H", "5D", "5C"],
        leader=0,
        rules=JDF.with_overrides(revolution_set_size=5),
    )
    assert t.play(0, "6S 6H 6D 6C") == ["played"]
    t5 = Table(
        ["6S 6H 6D 6C JK 4C", "5H", "5D", "5C"],
        leader=0,
        rules=JDF.with_overrides(revolution_set_size=5),
    )
    assert t5.play(0, "6S 6H 6D 6C JK") == ["played", "revolution"]
    t0 = Table(
        ["6S 6H 6D 6C JK 4C", "5H", "5D", "5C"],
        leader=0,
        rules=JDF.with_overrides(revolution_set_size=0),
    )
    assert t0.play(0, "6S 6H 6D 6C JK") == ["played"]
    t6 = Table(
        ["6S 6H 6D 6C JK 4C", "5H", "5D", "5C"],
        leader=0,
        rules=JDF.with_overrides(revolution_set_size=6),
    )
    assert t6.play(0, "6S 6H 6D 6C JK") == ["played"]


def test_in_revolution_lower_ranks_beat_higher():
    t = Table(["9S 9H 9D 9C KD 5C", "QD 4D", "3H", "3C"], leader=0)
    t.play(0, "9S 9H 9D 9C")
    for seat in (1, 2, 3):
        t.pass_(seat)
    t.play(0, "KD")
    assert t.play(1, "QD") == ["played", "lock_started"]
