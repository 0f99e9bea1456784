"""Every game is reached through its family: a ruleset names the family, and the family offers
the one interface (new game, legal moves, apply, pending decisions, observe, outcome, records)."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    DAIFUGO,
    Decision,
    IllegalMove,
    RulesError,
    families,
    family_of,
    find_ruleset,
    latest_rulesets,
)
from games.engine.daifugo import move_from_json
from games.engine.errors import RecordError
from games.engine.record import export_record, load_record, replay

TITLES = ["daifugo", "fugo", "hinmin", "daihinmin"]
HANDS = ["3S 4S 5S 6S", "7S 8S 9S TS", "2S 2H JS", "JK 2D QS KS"]


def test_a_ruleset_names_its_family():
    rules = find_ruleset("jdf@1")
    assert (rules.key, rules.family) == ("jdf@1", "daifugo")
    assert family_of(rules) is DAIFUGO
    assert set(families()) >= {"daifugo"}


def test_every_preset_of_every_family_resolves_and_the_bare_id_is_the_latest_version():
    for rules in latest_rulesets():
        assert find_ruleset(rules.id) is rules
        assert family_of(rules).presets[rules.key] is rules


def test_an_unknown_ruleset_is_a_rules_error_listing_the_known_ones():
    with pytest.raises(RulesError, match="jdf@1"):
        find_ruleset("guandan-cn@9")


def test_the_exchange_is_a_pending_decision_of_each_giver():
    rules = find_ruleset("jdf")
    state = DAIFUGO.new_game(rules, hands=HANDS, titles=TITLES)
    assert DAIFUGO.pending(state) == (
        Decision(0, "give", 2, 3),
        Decision(1, "give", 1, 2),
        Decision(2, "give", 1, 1),
        Decision(3, "give", 2, 0),
    )
    assert DAIFUGO.to_move(state) == (0, 1, 2, 3)
    state, _ = DAIFUGO.apply(state, move_from_json({"seat": 3, "give": ["JK", "2D"]}, "m", 4))
    assert [d.seat for d in DAIFUGO.pending(state)] == [0, 1, 2]
    # legal_moves lists exactly the pending seats' decisions
    assert {m.seat for m in DAIFUGO.legal_moves(state)} == {0, 1, 2}


def test_lower_titles_decide_first_under_lower_first_exchange():
    rules = find_ruleset("uecda@1")
    hands = ["3D 4D", "5D 6D", "7D 8D", "9D TD", "JD QD"]
    state = DAIFUGO.new_game(
        rules, hands=hands, titles=["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]
    )
    assert [(d.seat, d.count, d.to) for d in DAIFUGO.pending(state)] == [(3, 1, 1), (4, 2, 0)]
    with pytest.raises(IllegalMove):
        DAIFUGO.apply(state, move_from_json({"seat": 0, "give": ["3D", "4D"]}, "m", 5))


def test_in_play_the_seat_in_turn_is_the_one_to_move_and_nothing_is_pending():
    state = DAIFUGO.new_game(find_ruleset("jdf"), hands=["3S", "4S", "5S", "6S"])
    assert DAIFUGO.pending(state) == ()
    assert DAIFUGO.to_move(state) == (0,)


def test_the_outcome_is_family_neutral_and_only_exists_at_the_end():
    rules = find_ruleset("uecda@1")
    state = DAIFUGO.new_game(rules, hands=["3D", "4D", "5D", "6D", "7D"])
    assert DAIFUGO.outcome(state) is None
    for seat in range(4):  # the last seat holding cards is placed last without playing
        card = "34567"[seat] + "D"
        state, _ = DAIFUGO.apply(state, move_from_json({"seat": seat, "play": [card]}, "m", 5))
    results = DAIFUGO.outcome(state)
    assert results is not None
    assert [(r.seat, r.place, r.team, r.points) for r in results] == [
        (0, 1, None, 5),
        (1, 2, None, 4),
        (2, 3, None, 3),
        (3, 4, None, 2),
        (4, 5, None, 1),
    ]
    assert results[0].detail == {"title": "daifugo", "foul": False, "miyako_ochi": False}


def test_declared_metrics_count_the_result_details():
    by_key = {m.key: m for m in DAIFUGO.metrics}
    detail = {"title": "daihinmin", "foul": True, "miyako_ochi": False}
    assert by_key["daihinmin"].value(detail) == 1
    assert by_key["daifugo"].value(detail) == 0
    assert by_key["fouls"].value(detail) == 1
    assert [m.tie_break for m in DAIFUGO.metrics] == [
        "daifugo",
        "fugo",
        "heimin",
        "hinmin",
        "fewer_daihinmin",
        "fewer_fouls",
        "fewer_miyako_ochi",
    ]


def test_a_record_round_trips_through_the_family():
    rules = find_ruleset("jdf")
    start = DAIFUGO.new_game(rules, hands=HANDS, titles=TITLES)
    gives = [{"seat": 3, "give": ["2D", "JK"]}, {"seat": 2, "give": ["2S"]}]
    gives += [{"seat": 0, "give": ["3S", "4S"]}, {"seat": 1, "give": ["7S"]}]
    actions = [move_from_json(g, "g", 4) for g in gives]
    actions.append(move_from_json({"seat": 3, "play": ["QS"]}, "m", 4))
    record = json.loads(json.dumps(export_record(start, actions)))
    assert record["format"] == "kakumei-record/1" and record["rules"] == "jdf@1"
    assert record["exchange"] == gives
    result = replay(load_record(record))
    assert [v.ok for v in result.exchange] == [True] * 4
    assert [v.ok for v in result.moves] == [True]
    assert result.family is DAIFUGO


def test_a_move_object_that_is_not_a_move_names_the_key_in_english_and_japanese():
    with pytest.raises(RecordError) as caught:
        move_from_json({"seat": 9, "pass": True}, "moves[2]", 4)
    assert caught.value.key == "moves[2].seat"
    assert caught.value.message_en == "'seat' must be 0..3"
    assert caught.value.message_ja == "'seat' は 0〜3 です"


def test_a_give_inside_moves_is_not_a_record():
    record = {"format": "kakumei-record/1", "rules": "jdf", "hands": HANDS, "titles": TITLES}
    record["moves"] = [{"seat": 0, "give": ["3S", "4S"]}]
    with pytest.raises(RecordError) as caught:
        load_record(record)
    assert caught.value.key == "moves[0].give"
