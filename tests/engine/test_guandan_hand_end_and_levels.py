"""Guandan rules 9–11: the hand ends when both players of a team are out; the first
finisher's team goes up 3, 2 or 1 levels by its partner's place, never past A; a team at A
wins the match with a 1-2 or 1-3 finish as the declaring team, and fails otherwise
(GD-T14, GD-T15; E1, E2, E10)."""

from __future__ import annotations

import random

import pytest

from games.engine.guandan import (
    GUANDAN,
    GUANDAN_CN,
    GUANDAN_PAGAT,
    GuandanRules,
    Match,
    State,
    apply,
    deal_hands,
    hand_result,
    new_game,
    next_match,
)

from .guandan_helpers import pass_, play

# Seat 0 leads and goes out at once; the others' cards are all weaker or stronger as each
# scenario needs.


def finish_1_2(match: Match, rules: GuandanRules = GUANDAN_CN) -> State:
    state = new_game(rules, ["KS", "3C 4C", "AS", "7C 8C"], match=match, leader=0)
    state, _ = play(state, 0, "KS")
    state, _ = pass_(state, 1)
    state, events = play(state, 2, "AS")
    assert events == ["played", "finished", "game_over"]
    return state


def test_a_1_2_finish_ends_the_hand_and_gains_three_levels() -> None:
    state = finish_1_2(Match((2, 2), declaring=0))
    assert GUANDAN.is_over(state)
    result = hand_result(state)
    assert (result.finish, result.winner, result.gain) == ("1-2", 0, 3)
    assert result.match.levels == (5, 2)
    results = GUANDAN.outcome(state)
    assert results is not None
    assert [(r.seat, r.place, r.team) for r in results] == [
        (0, 1, 0),
        (2, 2, 0),
        (1, 3, 1),
        (3, 3, 1),
    ]
    assert results[0].detail["level_gain"] == 3 and results[0].detail["team_level"] == "5"
    assert results[2].detail["level_gain"] == 0 and results[2].detail["team_level"] == "2"


def test_a_1_3_finish_gains_two_levels() -> None:
    state = new_game(GUANDAN_CN, ["KS", "AS 3D", "4C", "7C 8C"], match=Match(declaring=0), leader=0)
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    # Seat 1 leads again (it is still in), plays 3D; seat 2 beats it with 4C and is out.
    state, _ = play(state, 1, "3D")
    state, events = play(state, 2, "4C")
    assert events == ["played", "finished", "game_over"]
    result = hand_result(state)
    assert (result.finish, result.gain, result.match.levels) == ("1-3", 2, (4, 2))
    assert result.match.previous == (0, 1, 2, 3)


def test_a_1_4_finish_gains_one_level() -> None:
    state = new_game(GUANDAN_CN, ["KS", "AS", "4C 5C", "7C"], match=Match(declaring=0), leader=0)
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)  # 接风: seat 3 leads for its partner
    state, events = play(state, 3, "7C")
    assert events == ["played", "finished", "game_over"]
    result = hand_result(state)
    assert (result.finish, result.winner, result.gain) == ("1-4", 0, 1)
    assert result.match.levels == (3, 2)
    assert result.match.previous == (0, 1, 3, 2)


def test_levels_stop_at_ace() -> None:
    # GD-T14: a team at Q finishes 1-2: +3, capped at A.
    state = finish_1_2(Match((12, 2), declaring=0))
    assert next_match(state).levels == (14, 2)


def test_a_declaring_team_at_ace_wins_the_match_with_a_1_3_finish() -> None:
    # GD-T15
    state = new_game(
        GUANDAN_CN, ["KS", "AS 3D", "4C", "7C 8C"], match=Match((14, 9), declaring=0), leader=0
    )
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    state, _ = play(state, 1, "3D")
    state, _ = play(state, 2, "4C")
    result = hand_result(state)
    assert result.match_won and result.finish == "1-3"
    winners = [r for r in GUANDAN.outcome(state) or () if r.detail["match_won"]]
    assert {r.seat for r in winners} == {0, 2}


def test_a_1_4_finish_at_ace_is_a_failed_attempt_and_the_team_still_declares() -> None:
    # GD-T15
    state = new_game(
        GUANDAN_CN, ["KS", "AS", "4C 5C", "7C"], match=Match((14, 9), declaring=0), leader=0
    )
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    state, _ = play(state, 3, "7C")
    result = hand_result(state)
    assert not result.match_won and result.failed_at_a
    assert result.match.failures == (1, 0)
    assert result.match.levels == (14, 9)
    assert result.match.declarer == 0


def test_the_third_failure_at_ace_sends_the_team_back_to_two() -> None:
    # E2: guandan-cn's default, like pagat: three failures, then level 2.
    match = Match((14, 9), (2, 0), declaring=0)
    state = new_game(GUANDAN_CN, ["KS", "AS", "4C 5C", "7C"], match=match, leader=0)
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    state, _ = play(state, 3, "7C")
    result = hand_result(state)
    assert result.demoted == 0
    assert result.match.levels == (2, 9) and result.match.failures == (0, 0)


def test_no_demotion_when_the_failure_limit_is_off() -> None:
    rules = GUANDAN_CN.with_overrides(a_failure_limit=0)
    match = Match((14, 9), (5, 0), declaring=0)
    state = new_game(rules, ["KS", "AS", "4C 5C", "7C"], match=match, leader=0)
    state, _ = play(state, 0, "KS")
    state, _ = play(state, 1, "AS")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    state, _ = play(state, 3, "7C")
    assert hand_result(state).match.levels == (14, 9)


def opponents_go_out_first_with_aces(rules: GuandanRules) -> State:
    # Team 0 declares at A; seat 1 leads and goes out with a pair of aces, then seat 3 too.
    match = Match((14, 9), declaring=0)
    state = new_game(rules, ["3S 4S", "AS AD", "5S 6S", "KC KD"], match=match, leader=1)
    state, _ = play(state, 1, "AS AD")
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    state, _ = pass_(state, 0)  # 接风: seat 3 leads
    state, events = play(state, 3, "KC KD")
    assert events[-1] == "game_over"
    return state


def test_pagat_an_opponent_going_out_first_with_aces_sends_the_ace_team_to_two() -> None:
    result = hand_result(opponents_go_out_first_with_aces(GUANDAN_PAGAT))
    assert result.demoted == 0 and result.match.levels == (2, 12)


def test_competition_rules_only_count_a_failure() -> None:
    # E10: a hand where the A team declares counts, even when the opponents win it.
    result = hand_result(opponents_go_out_first_with_aces(GUANDAN_CN))
    assert result.demoted is None
    assert result.match.levels == (14, 12) and result.match.failures == (1, 0)


def test_a_hand_the_opponents_declare_is_no_attempt_at_ace() -> None:
    # E10: team 1 is at A, but the hand is played at team 0's level.
    match = Match((5, 14), declaring=0)
    state = finish_1_2(match)
    result = hand_result(state)
    assert not result.failed_at_a and result.match.failures == (0, 0)


def test_the_next_hand_is_played_at_the_first_finishers_level() -> None:
    match = next_match(finish_1_2(Match((2, 7), declaring=1)))
    assert match.declarer == 0 and match.level == 5


@pytest.mark.parametrize("rules", [GUANDAN_CN, GUANDAN_PAGAT], ids=lambda r: r.key)
def test_a_random_match_chains_hand_after_hand_until_a_team_wins_at_ace(rules) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(rules.key)
    match = Match()
    for hand in range(200):
        hands = list(deal_hands(f"{rules.key}/{hand}", rules))
        state = new_game(rules, hands, match=match, leader=0 if match.previous is None else None)
        assert state.level == match.level
        while not GUANDAN.is_over(state):
            state, _ = apply(state, rng.choice(list(GUANDAN.legal_moves(state))))
        result = hand_result(state)
        before, match = match, result.match
        if result.match_won:
            assert before.levels[result.winner] == 14 and result.finish in ("1-2", "1-3")
            return
        for team in (0, 1):
            gained = match.levels[team] - before.levels[team]
            if team == result.winner and result.demoted != team:
                assert gained == min(result.gain, 14 - before.levels[team])
            elif result.demoted == team:
                assert match.levels[team] == 2
            else:
                assert gained == 0
    pytest.fail("no team won the match in 200 hands")
