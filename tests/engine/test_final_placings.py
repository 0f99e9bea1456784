"""Placings from an outcome alone (quick results): the title rules of JDF §19 and foul_order."""

from __future__ import annotations

import pytest

from games.engine import JDF, EngineError, final_placings, find_ruleset

LOCAL = find_ruleset("local")


def titles(placings) -> dict[int, str]:
    return {p.seat: p.title for p in placings}


def test_jdf_t15_miyako_ochi_takes_the_lowest_free_title() -> None:
    # P1 大富豪 falls when P3 finishes first; P4 then P2 finish; nobody fouls.
    outcome = final_placings(JDF, 4, clean=[2, 3], remaining=[1], miyako=0)

    assert titles(outcome) == {2: "daifugo", 3: "fugo", 1: "hinmin", 0: "daihinmin"}
    assert [p.seat for p in outcome if p.miyako_ochi] == [0]


def test_jdf_t16_a_foul_plus_miyako_ochi() -> None:
    # P2 fouls with JK; P3 finishes clean (P1 都落ち); P4 is left holding cards.
    outcome = final_placings(JDF, 4, clean=[2], remaining=[3], fouls=[1], miyako=0)

    assert titles(outcome) == {2: "daifugo", 3: "fugo", 0: "hinmin", 1: "daihinmin"}
    assert [p.seat for p in outcome if p.foul] == [1]


def test_jdf_t17_two_fouls_the_first_is_last() -> None:
    # P2 fouls first, then P3; P4 finishes clean; P1 is left.
    outcome = final_placings(JDF, 4, clean=[3], remaining=[0], fouls=[1, 2])

    assert titles(outcome) == {3: "daifugo", 0: "fugo", 2: "hinmin", 1: "daihinmin"}
    assert [p.place for p in outcome] == [1, 2, 3, 4]


def test_latest_fouler_is_last_under_the_local_rules() -> None:
    # local (REFERENCE §3): fouls are ranked by time, the latest fouler lowest.
    outcome = final_placings(LOCAL, 4, clean=[3], remaining=[0], fouls=[1, 2])

    assert titles(outcome) == {3: "daifugo", 0: "fugo", 1: "hinmin", 2: "daihinmin"}


@pytest.mark.parametrize(
    "outcome",
    [
        {"clean": [0, 1], "remaining": [2]},  # seat 3 missing
        {"clean": [0, 1], "remaining": [2], "fouls": [2]},  # seat 2 twice
        {"clean": [0, 1, 2], "remaining": [4]},  # no seat 4 at a table of four
        {"clean": [0], "remaining": [1], "fouls": [2], "miyako": 3, "miyako_at": 2},
    ],
)
def test_an_impossible_outcome_is_refused(outcome) -> None:
    with pytest.raises(EngineError) as error:
        final_placings(JDF, 4, **outcome)
    assert error.value.code == "outcome_invalid"
