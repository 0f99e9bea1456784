"""Finishing, fouls, 都落ち and titles (JDF §16–21; A6, A10)."""

from __future__ import annotations

from games.engine import JDF

from .helpers import Table

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]


def test_jdf_t12_foul_finish_with_a_two():
    t = Table(["KD 4C", "5C 6C", "2C", "AD JK 7H"], leader=0)
    t.play(0, "KD")
    t.pass_(1)
    assert t.play(2, "2C") == ["played", "foul_finish"]
    assert t.state.table is not None and t.state.table.cards == 1 << 51  # 2C stays
    assert t.turn == 3
    t.reject_play(3, "AD", "not_stronger")
    assert t.play(3, "JK") == ["played"]
    assert t.placing() == [(2, "daihinmin", True, False)]


def test_jdf_t13_an_eight_inside_stairs_is_not_a_foul():
    t = Table(["4C 5C", "7S 8S 9S", "6D 7D", "9H TH"], leader=1)
    assert t.play(1, "7S 8S 9S") == ["played", "finished"]
    assert t.placing() == [(1, "daifugo", False, False)]


def test_jdf_t14_foul_finish_by_spade3_return():
    t = Table(["JK 4C", "5C 6C", "7D 8D", "3S"], leader=0)
    t.play(0, "JK")
    t.pass_(1)
    t.pass_(2)
    assert t.play(3, "3S") == ["played", "spade_three_return", "foul_finish", "trick_cleared"]
    assert t.turn == 0
    assert t.placing() == [(3, "daihinmin", True, False)]


def test_jdf_t15_miyako_ochi():
    t = Table(
        ["3S 3H 7S 8S 9H", "KC 5D 6D 7H", "AS KD", "2S 2H 4D 4S 6S"], leader=None, titles=TITLES
    )
    t.give(3, "2S 2H")
    t.give(2, "AS")
    t.give(0, "3S 3H")
    assert t.give(1, "KC") == ["exchange_given", "exchange_done"]
    assert t.turn == 3  # the previous 大貧民 leads
    t.play(3, "4D 4S")
    t.pass_(0)
    t.pass_(1)
    assert t.play(2, "KD KC") == ["played", "finished", "miyako_ochi"]
    miyako = next(e for e in t.events if e.kind == "miyako_ochi")
    assert miyako.to_dict()["seat"] == 0
    assert sorted(miyako.to_dict()["discarded"]) == sorted(["7S", "8S", "9H", "2S", "2H"])
    assert t.state.hands[0] == 0 and t.state.counts[0] == 0
    assert t.turn == 3  # play continues between P2 and P4
    t.pass_(3)
    t.play(3, "3S 3H")
    t.pass_(1)
    t.play(3, "6S")
    assert t.state.is_over
    assert t.placing() == [
        (2, "daifugo", False, False),
        (3, "fugo", False, False),
        (1, "hinmin", False, False),
        (0, "daihinmin", False, True),
    ]


def test_jdf_t16_foul_plus_miyako_ochi():
    t = Table(["3S 3H 9S 9H", "KC", "JK KD", "2S 2H 5C 6C"], leader=None, titles=TITLES)
    for seat, cards in ((3, "2S 2H"), (2, "JK"), (0, "3S 3H"), (1, "KC")):
        t.give(seat, cards)
    t.play(3, "5C")
    t.pass_(0)
    assert t.play(1, "JK") == ["played", "foul_finish"]
    t.pass_(2)
    t.pass_(3)
    assert t.turn == 2
    assert t.play(2, "KD KC") == ["played", "finished", "miyako_ochi", "game_over"]
    assert t.placing() == [
        (2, "daifugo", False, False),
        (3, "fugo", False, False),
        (0, "hinmin", False, True),
        (1, "daihinmin", True, False),
    ]


def test_jdf_t17_two_fouls_no_miyako_ochi():
    t = Table(["5D 9C", "2C", "JK", "6H"], leader=0)
    t.play(0, "5D")
    assert t.play(1, "2C") == ["played", "foul_finish"]
    assert t.play(2, "JK") == ["played", "foul_finish"]
    t.pass_(3)
    t.pass_(0)
    assert t.play(3, "6H") == ["played", "finished", "game_over"]
    assert t.placing() == [
        (3, "daifugo", False, False),
        (0, "fugo", False, False),
        (2, "hinmin", True, False),
        (1, "daihinmin", True, False),
    ]


def test_foul_with_an_eight_does_not_cut_a10():
    t = Table(["4C 5C", "8D", "9D TD", "JH QH"], leader=0)
    t.play(0, "4C")
    assert t.play(1, "8D") == ["played", "foul_finish"]
    assert t.state.table is not None and t.turn == 2


def test_foul_with_three_in_revolution():
    t = Table(["6S 6H 6D 6C 9C", "3D", "TD JD", "QH KH"], leader=0)
    t.play(0, "6S 6H 6D 6C")
    for seat in (1, 2, 3):
        t.pass_(seat)
    t.play(0, "9C")
    assert t.play(1, "3D") == ["played", "foul_finish"]


def test_a_two_in_revolution_is_clean():
    t = Table(["6S 6H 6D 6C 9C", "2D", "TD JD", "QH KH"], leader=0)
    t.play(0, "6S 6H 6D 6C")
    for seat in (1, 2, 3):
        t.pass_(seat)
    assert t.play(0, "9C") == ["played", "finished"]
    for seat in (1, 2, 3):
        t.pass_(seat)
    assert t.turn == 1
    assert t.play(1, "2D") == ["played", "finished"]  # 2 is not forbidden in revolution


def test_a6_lone_spade3_finish_default_and_switch():
    t = Table(["3S", "5C 6C", "7D 8D", "9H TH"], leader=0)
    assert t.play(0, "3S") == ["played", "foul_finish"]
    rules = JDF.with_overrides(lone_spade3_finish_is_foul=False)
    t2 = Table(["3S", "5C 6C", "7D 8D", "9H TH"], leader=0, rules=rules)
    assert t2.play(0, "3S") == ["played", "finished"]
    t3 = Table(["JK 4C", "5C 6C", "7D 8D", "3S"], leader=0, rules=rules)
    t3.play(0, "JK")
    t3.pass_(1)
    t3.pass_(2)
    assert "foul_finish" in t3.play(3, "3S")  # a ♠3 return finish stays a foul


def test_miyako_ochi_switch_off():
    rules = JDF.with_overrides(miyako_ochi=False)
    t = Table(
        ["3S 3H 7S 8S 9H", "KC 5D 6D 7H", "AS KD", "2S 2H 4D 4S 6S"],
        leader=None,
        titles=TITLES,
        rules=rules,
    )
    for seat, cards in ((3, "2S 2H"), (2, "AS"), (0, "3S 3H"), (1, "KC")):
        t.give(seat, cards)
    t.play(3, "4D 4S")
    t.pass_(0)
    t.pass_(1)
    assert t.play(2, "KD KC") == ["played", "finished"]
    assert t.state.counts[0] == 5


def test_daifugo_finishing_first_means_no_miyako_ochi():
    t = Table(["3S 3H 9D", "KC 5D 6D 7H", "AS KD QD", "2S 2H 4D 4S 6S"], leader=None, titles=TITLES)
    for seat, cards in ((3, "2S 2H"), (2, "AS"), (0, "3S 3H"), (1, "KC")):
        t.give(seat, cards)
    t.play(3, "4D 4S")
    t.play(0, "2S 2H")  # not the final play: no foul
    t.pass_(1)
    t.pass_(2)
    t.pass_(3)
    assert t.play(0, "9D") == ["played", "finished"]
    assert t.state.miyako == -1
    assert t.state.counts[0] == 0 and t.state.out == 1


def test_game_ends_when_one_player_holds_cards():
    t = Table(["4C", "5C", "6C", "7C 8C"], leader=0)
    t.play(0, "4C")
    t.play(1, "5C")
    assert t.play(2, "6C") == ["played", "finished", "game_over"]
    assert [p.seat for p in t.state.placings()] == [0, 1, 2, 3]
    from games.engine import Move

    t.reject(Move.play(3, "7C"), "game_over")
