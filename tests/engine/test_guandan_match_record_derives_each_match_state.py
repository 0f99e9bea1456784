"""The match state before each later hand of a match record comes from the engine
(``next_match`` of the hand before); a stated one must agree, field by field."""

from __future__ import annotations

import pytest

from games.engine.errors import RecordError
from games.engine.guandan import MATCH_MISMATCH
from games.engine.record import replay_match

from .guandan_match_helpers import match_record


def _stating(name: str, **match: object) -> dict:  # type: ignore[type-arg]
    record = match_record(name)
    record["games"][1]["match"] = match
    return record


def test_a_later_hand_need_not_state_its_match() -> None:
    record = match_record("m02-third-failure-at-ace-demotes")
    stated = replay_match(record).to_dict()
    del record["games"][1]["match"]

    assert replay_match(record).to_dict() == stated


@pytest.mark.parametrize(
    ("field", "match"),
    [
        ("levels", {"levels": ["A", "6"], "failures": [2, 0], "previous": [0, 1, 3, 2]}),
        ("failures", {"levels": ["A", "5"], "failures": [0, 0], "previous": [0, 1, 3, 2]}),
        ("previous", {"levels": ["A", "5"], "failures": [2, 0], "previous": [0, 3, 1, 2]}),
        ("declarer", {"levels": ["A", "5"], "failures": [2, 0], "declarer": 0}),
    ],
)
def test_a_stated_match_that_differs_is_refused_with_its_field_as_key(field, match) -> None:  # type: ignore[no-untyped-def]
    record = _stating("m02-third-failure-at-ace-demotes", **match)

    with pytest.raises(RecordError) as refused:
        replay_match(record)

    expected_key = "games[1].match.previous" if field == "declarer" else f"games[1].match.{field}"
    assert refused.value.key == expected_key
    assert refused.value.code == MATCH_MISMATCH


def test_after_a_1_2_finish_the_losers_may_be_stated_in_either_order() -> None:
    record = _stating(
        "m01-match-won-at-ace", levels=["A", "2"], failures=[0, 0], previous=[0, 2, 1, 3]
    )

    assert replay_match(record).to_dict()["winner"] == 0


def test_the_derived_match_is_what_the_output_reports() -> None:
    output = replay_match(match_record("m04-anti-tribute-in-the-next-hand")).to_dict()

    assert output["games"][1]["match"]["levels"] == ["5", "2"]  # type: ignore[index]
