"""kakumei-record/1: loading, validation, replay semantics, export."""

from __future__ import annotations

import json

import pytest

from games.engine import JDF, EngineError, Move, RecordError, apply, new_game, parse_cards
from games.engine.daifugo import move_to_json
from games.engine.record import export_record, load_record, replay


def base(**extra):
    rec = {
        "format": "kakumei-record/1",
        "rules": "jdf",
        "seats": 4,
        "hands": [["3S", "5D"], ["4H", "6C"], ["7S", "9D"], ["8H", "TD"]],
        "moves": [],
    }
    rec.update(extra)
    return rec


def test_minimal_record_and_defaults():
    rec = load_record(base())
    assert rec.rules is JDF and rec.moves == () and rec.blind is None
    r = load_record(json.dumps({k: v for k, v in base().items() if k not in ("rules", "seats")}))
    assert r.rules is JDF


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"extra": 1}, "extra"),
        ({"format": "kakumei-record/2"}, "format"),
        ({"rules": "nope"}, "rules"),
        ({"rules": {"preset": "jdf", "overrides": {"eleven_back": True}}}, "rules"),
        ({"seats": 5}, "seats"),
        ({"hands": [["3S"], ["4H"], ["7S"]]}, "hands"),
        ({"hands": [["3S", "XX"], ["4H"], ["7S"], ["8H"]]}, "hands[0][1]"),
        ({"hands": [["3S"], ["3S"], ["7S"], ["8H"]]}, "hands[1]"),
        ({"blind": ["JK"]}, "blind"),
        ({"blind": ["3S"]}, "blind"),
        ({"titles": ["daifugo", "daifugo", "hinmin", "daihinmin"]}, "titles"),
        ({"leader": 4}, "leader"),
        ({"counts": [2, 2, 2]}, "counts"),
        ({"moves": [{"seat": 0}]}, "moves[0]"),
        ({"moves": [{"seat": 0, "play": ["3S"], "pass": True}]}, "moves[0]"),
        ({"moves": [{"seat": 0, "pass": False}]}, "moves[0].pass"),
        ({"moves": [{"seat": 7, "pass": True}]}, "moves[0].seat"),
        ({"moves": [{"seat": 0, "play": ["ZZ"]}]}, "moves[0].play[0]"),
        ({"moves": [{"seat": 0, "play": ["3S"], "as": {"JK": "QQ"}}]}, "moves[0].as.JK[0]"),
        ({"moves": [{"seat": 0, "play": ["3S"], "as": {"X": "3S"}}]}, "moves[0].as"),
        ({"moves": [{"seat": 0, "play": ["3S"], "bogus": 1}]}, "moves[0]"),
        ({"exchange": [{"seat": 0, "give": ["3S"]}]}, "exchange"),
    ],
)
def test_invalid_records_name_the_key(change, key):
    with pytest.raises(RecordError) as info:
        load_record(base(**change))
    assert info.value.key == key
    assert key in str(info.value)


def test_not_json_or_not_an_object():
    for bad in ("{", "[]", "null", b"\xff"):
        with pytest.raises(RecordError):
            load_record(bad)


def test_illegal_moves_are_not_applied():
    result = replay(
        base(
            moves=[
                {"seat": 1, "play": ["4H"]},
                {"seat": 0, "play": ["5D"]},
                {"seat": 0, "play": ["3S"]},
                {"seat": 1, "play": ["4H"]},
            ]
        )
    )
    out = result.to_dict()
    assert [m["ok"] for m in out["moves"]] == [False, False, True, True]
    assert out["moves"][0]["code"] == "not_your_turn"
    assert out["moves"][1]["code"] == "must_include_opening_card"
    assert out["moves"][2] == {"i": 2, "ok": True, "events": ["played"]}
    assert out["finished"] is False and out["placings"] == []


def test_as_accepts_string_or_list_and_declare():
    rec = load_record(
        base(
            hands=[["5C", "JK", "JK", "9D"], ["6S"], ["7S"], ["8S"]],
            leader=0,
            moves=[
                {
                    "seat": 0,
                    "play": ["5C", "JK", "JK"],
                    "declare": "stairs",
                    "as": {"JK": ["6C", "7C"]},
                }
            ],
        )
    )
    assert rec.moves[0].as_cards == parse_cards("6C 7C") and rec.moves[0].declare == "stairs"
    assert replay(rec).moves[0].ok


def test_choice_is_carried_and_rejected_under_jdf():
    out = replay(base(moves=[{"seat": 0, "play": ["3S"], "choice": {"target": 2}}])).to_dict()
    assert out["moves"][0]["code"] == "choice_invalid"


def test_export_then_load_reproduces_the_game():
    state = new_game(JDF, ["3S 5D JK", "4H 6C 7C", "7S 9D", "8H TD"], blind="2S 2H")
    start = state
    moves = [Move.play(0, "3S"), Move.play(1, "4H"), Move.pass_turn(2), Move.play(3, "8H")]
    for m in moves:
        state, _ = apply(state, m)
    rec = export_record(start, moves)
    assert rec["blind"] == ["2S", "2H"] and rec["rules"] == "jdf@1"
    again = replay(json.loads(json.dumps(rec)))
    assert again.state == state
    assert move_to_json(Move.play(0, "4D 5D JK", as_="6D")) == {
        "seat": 0,
        "play": ["4D", "5D", "JK"],
        "as": {"JK": "6D"},
    }


def test_export_open_table_with_overrides():
    rules = JDF.with_overrides(eight_cut=False)
    state = new_game(rules, [None, "5C", "6C", "7C"], counts=[3, 1, 1, 1], leader=0)
    rec = export_record(state, [])
    assert rec["hands"][0] is None and rec["counts"] == [3, 1, 1, 1]
    assert rec["rules"] == {"preset": "jdf@1", "overrides": {"eight_cut": False}}
    assert load_record(rec).rules == rules


def test_record_errors_are_engine_errors():
    assert issubclass(RecordError, EngineError)
