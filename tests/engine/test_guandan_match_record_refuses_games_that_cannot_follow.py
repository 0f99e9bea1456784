"""A match record is refused, with a key inside ``games``, where a hand cannot follow the
one before or is not well formed."""

from __future__ import annotations

import pytest

from games.engine.errors import RecordError
from games.engine.record import load_match_record, replay_match

from .guandan_match_helpers import match_record


def _refused(record: dict) -> RecordError:  # type: ignore[type-arg]
    with pytest.raises(RecordError) as refused:
        replay_match(record)
    return refused.value


def test_no_hand_follows_a_hand_that_is_not_over() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"][0]["moves"].pop()

    assert _refused(record).key == "games[1]"


def test_no_hand_follows_the_hand_that_won_the_match() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"].append(record["games"][1])

    assert _refused(record).key == "games[2]"


def test_a_later_hand_has_no_leader() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"][1]["leader"] = 3

    assert _refused(record).key == "games[1].leader"


def test_errors_inside_a_hand_are_keyed_inside_it() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"][1]["hands"][2] = ["4S", "ZZ"]
    record["games"][0]["moves"][1] = {"seat": 9, "pass": True}

    assert _refused(record).key == "games[0].moves[1].seat"
    record["games"][0]["moves"][1] = {"seat": 1, "play": ["4S"]}
    assert _refused(record).key == "games[1].hands[2]"


def test_a_hand_after_a_hand_dealing_too_many_copies_is_refused() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"][1]["hands"][0] = ["BJ", "BJ"]

    assert _refused(record).key == "games[1].hands[3]"


def test_a_family_without_match_records_refuses_games() -> None:
    record = {"format": "kakumei-record/1", "rules": "jdf@1", "games": []}

    with pytest.raises(RecordError) as refused:
        load_match_record(record)
    assert refused.value.key == "games"


def test_a_match_record_holds_at_least_one_hand() -> None:
    record = match_record("m01-match-won-at-ace")
    record["games"] = []

    assert _refused(record).key == "games"
