"""A match vector's expectations are checked per hand and for the match (conformance
README, "match vector")."""

from __future__ import annotations

from games.engine.record import check_vector

from .guandan_match_helpers import match_vector


def test_a_match_vector_passes_as_written() -> None:
    assert check_vector(match_vector("m01-match-won-at-ace")) == []


def test_a_wrong_result_of_one_hand_is_reported_for_that_hand() -> None:
    vector = match_vector("m01-match-won-at-ace")
    vector["expect"]["games"][0]["result"]["levels"] = ["K", "2"]  # type: ignore[index]

    assert check_vector(vector) == ["games[0].result.levels: expected ['K', '2'], got ['A', '2']"]


def test_a_wrong_winner_is_reported() -> None:
    vector = match_vector("m01-match-won-at-ace")
    vector["expect"]["winner"] = 1  # type: ignore[index]

    assert check_vector(vector) == ["winner: expected 1, got 0"]


def test_a_missing_hand_is_reported() -> None:
    vector = match_vector("m01-match-won-at-ace")
    vector["expect"]["games"].pop()  # type: ignore[index]

    assert check_vector(vector) == ["games: expected 1, got 2"]


def test_a_refusal_vector_checks_the_key_and_code() -> None:
    vector = match_vector("m05-stated-match-must-follow-from-the-hand-before")
    assert check_vector(vector) == []

    vector["expect"]["error"]["key"] = "games[1].match.levels"  # type: ignore[index]
    assert check_vector(vector) == [
        "error.key: expected 'games[1].match.levels', got 'games[1].match.failures'"
    ]


def test_a_refusal_vector_fails_when_the_record_replays() -> None:
    vector = match_vector("m01-match-won-at-ace")
    vector["expect"] = {"error": {"code": "match_mismatch"}}

    assert check_vector(vector) == [
        "error: expected {'code': 'match_mismatch'}, the record replayed"
    ]
