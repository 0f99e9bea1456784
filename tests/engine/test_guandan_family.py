"""Guandan behind the family interface: the registry, presets and switches, records, replay,
snapshots, results and metrics."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.engine import GUANDAN, Family, families, family_of, find_ruleset, latest_rulesets
from games.engine.errors import RecordError, RulesError
from games.engine.guandan import (
    GUANDAN_CN,
    GUANDAN_PAGAT,
    Match,
    deal_hands,
    new_game,
    next_match,
    restore,
    snapshot,
)
from games.engine.multideck import DOUBLE_DECK
from games.engine.record import export_record, load_record, replay


def random_hand(seed: str, rules=GUANDAN_CN, match=None):  # type: ignore[no-untyped-def]
    """A dealt hand played to its end by uniformly random legal moves."""
    rng = random.Random(seed)
    hands = deal_hands(seed, rules)
    leader = None if match and match.previous else 0
    start = new_game(rules, list(hands), match=match, leader=leader)
    state, moves = start, []
    while not GUANDAN.is_over(state):
        move = rng.choice(list(GUANDAN.legal_moves(state)))
        state, _ = GUANDAN.apply(state, move)
        moves.append(move)
    return start, moves, state


def test_the_presets_are_registered_and_found_by_name() -> None:
    assert find_ruleset("guandan-cn") is GUANDAN_CN
    assert find_ruleset("guandan-pagat@1") is GUANDAN_PAGAT
    assert family_of(GUANDAN_CN) is GUANDAN
    assert GUANDAN_CN.family == "guandan" and GUANDAN_CN.seats == 4
    assert {r.key for r in latest_rulesets()} >= {"guandan-cn@1", "guandan-pagat@1"}


def test_every_difference_between_the_presets_is_a_switch() -> None:
    assert GUANDAN_CN.switches() == {
        "tribute_tie": "seat_order",
        "return_limit": "ten_or_lower",
        "a_failure_limit": 3,
        "aces_finish_demotes": False,
    }
    assert GUANDAN_PAGAT.switches() == {
        "tribute_tie": "first_chooses",
        "return_limit": "any",
        "a_failure_limit": 3,
        "aces_finish_demotes": True,
    }


def test_overrides_are_checked_and_recorded() -> None:
    rules = GUANDAN_CN.with_overrides(a_failure_limit=2)
    assert rules.to_record() == {"preset": "guandan-cn@1", "overrides": {"a_failure_limit": 2}}
    assert GUANDAN.ruleset(rules.to_record()) == rules
    with pytest.raises(RulesError):
        GUANDAN_CN.with_overrides(a_failure_limit=True)
    with pytest.raises(RulesError):
        GUANDAN_CN.with_overrides(wilds=False)


def test_a_deal_gives_all_108_cards_27_each() -> None:
    hands = GUANDAN.deal("round-1/table-1", GUANDAN_CN).hands
    assert [len(h) for h in hands] == [27] * 4
    total = hands[0] + hands[1] + hands[2] + hands[3]
    assert total == DOUBLE_DECK
    assert GUANDAN.deal("round-1/table-1", GUANDAN_CN).hands == hands


def test_a_record_round_trips_and_replays_to_the_same_end() -> None:
    start, moves, end = random_hand("record")
    record = export_record(start, moves)
    assert record["rules"] == "guandan-cn@1"
    text = json.dumps(record)
    again = replay(text)
    assert all(v.ok for v in again.moves)
    assert again.state == end and again.finished
    assert load_record(text).initial_state() == start


def test_a_later_hand_records_the_match_and_its_tribute() -> None:
    first = random_hand("first")[2]
    match = next_match(first)
    start, moves, end = random_hand("second", match=match)
    record = export_record(start, moves)
    assert record["match"]["previous"] == list(match.previous)  # type: ignore[index]
    assert replay(record).state == end


def test_results_carry_the_team_and_the_level_change() -> None:
    end = random_hand("results")[2]
    results = GUANDAN.outcome(end)
    assert results is not None and len(results) == 4
    assert {r.team for r in results} == {0, 1}
    assert results[0].place == 1 and results[0].detail["level_gain"] in (1, 2, 3)
    for metric in GUANDAN.metrics:
        assert sum(metric.value(r.detail) for r in results) >= 0
    assert GUANDAN.outcome(new_game(GUANDAN_CN, ["3S", "4S", "5S", "6S"], leader=0)) is None


def test_snapshots_restore_the_state() -> None:
    start, moves, _ = random_hand("snapshot")
    state = start
    for move in moves[:40]:
        state, _ = GUANDAN.apply(state, move)
        data = json.loads(json.dumps(snapshot(state)))
        assert restore(state.setup, data) == state


def test_records_refuse_bad_set_ups() -> None:
    hands = [["3S"], ["4S"], ["5S"], ["6S"]]
    base = {"format": "kakumei-record/1", "rules": "guandan-cn", "hands": hands}
    with pytest.raises(RecordError) as error:
        load_record(base)
    assert error.value.key == "leader"
    with pytest.raises(RecordError):
        load_record({**base, "leader": 0, "hands": [["3S", "3S"], ["3S"], ["5S"], ["6S"]]})
    with pytest.raises(RecordError):
        load_record({**base, "leader": 0, "match": {"levels": ["2", "Z"]}})
    with pytest.raises(RecordError):
        load_record({**base, "leader": 0, "moves": [{"seat": 0, "play": ["JK"]}]})
    with pytest.raises(RecordError):
        load_record({**base, "leader": 0, "exchange": []})
    assert load_record({**base, "leader": 0, "match": {"levels": ["10", "A"], "declarer": 1}})


def test_the_replay_command_reads_a_guandan_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    start, moves, _ = random_hand("cli")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(export_record(start, moves)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    output = json.loads(done.stdout)
    assert output["finished"] is True
    assert len(output["placings"]) == 4
    assert {p["team"] for p in output["placings"]} == {0, 1}


def test_the_first_hand_starts_at_two_and_later_hands_at_the_declarers_level() -> None:
    assert Match().level == 2
    assert Match((9, 4), previous=(1, 0, 2, 3)).level == 4


def test_a_position_with_a_declaring_team_round_trips() -> None:
    start = new_game(
        GUANDAN_CN, ["3S", "4S", "5S", "6S"], match=Match((7, 2), (1, 0), declaring=0), leader=1
    )
    record = export_record(start, [])
    assert record["match"] == {"levels": ["7", "2"], "failures": [1, 0], "declarer": 0}
    assert record["leader"] == 1
    assert load_record(json.dumps(record)).initial_state() == start
    assert GUANDAN.observe(start)["level"] == "7"


def test_the_family_offers_every_member_of_the_interface() -> None:
    # mypy --strict checks the protocol where guandan.py registers it (register takes a Family).
    family: Family = GUANDAN
    members = [name for name in dir(Family) if not name.startswith("_")]
    assert all(hasattr(family, name) for name in members)
    assert families()["guandan"] is GUANDAN
