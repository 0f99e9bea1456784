"""Worked examples of the Swiss pairing of teams, with the explanations organisers read."""

from __future__ import annotations

import pytest

from tournaments.pairing import PairHistory, PairingError, PairTeam, swiss_pairing

NAMES = {1: "Sakura", 2: "Fuji", 3: "Kaze", 4: "Umi", 5: "Yama", 6: "Hana", 7: "Sora", 8: "Tsuki"}


def team(number: int, points: float = 0, levels: int = 0) -> PairTeam:
    return PairTeam(number, f"Team {number} {NAMES[number]}", points, levels)


def test_the_first_round_pairs_by_lot_and_says_so() -> None:
    draw = swiss_pairing([team(n) for n in range(1, 9)], seed="ab", history=PairHistory())
    assert draw.method == "lot"
    assert len(draw.tables) == 4 and draw.bye is None
    assert all("paired by lot (first round)" in t.explanation for t in draw.tables)


def test_a_first_round_with_an_odd_number_of_teams_gives_one_bye_by_lot() -> None:
    draw = swiss_pairing([team(n) for n in range(1, 8)], seed="ab", history=PairHistory())
    assert draw.bye is not None
    assert draw.bye_explanation.endswith("had a bye: drawn by lot (an odd number of teams).")


def test_teams_of_equal_points_meet_in_their_point_group() -> None:
    teams = [team(1, 4, 3), team(2, 4, 1), team(3, 2, 0), team(4, 2, -1)]
    history = PairHistory(meetings=((1, 3, "1.1"), (2, 4, "1.1")))
    draw = swiss_pairing(teams, seed="x", history=history)
    assert [t.teams for t in draw.tables] == [(1, 2), (3, 4)]
    assert draw.tables[0].explanation == (
        "Team 1 Sakura (4 MP) v Team 2 Fuji (4 MP): paired in the 4-point group."
    )


def test_level_difference_orders_teams_of_equal_points() -> None:
    teams = [team(1, 2, -3), team(2, 2, 5), team(3, 2, 1), team(4, 2, 0)]
    history = PairHistory(meetings=((1, 4, "1.1"), (2, 3, "1.1")))
    draw = swiss_pairing(teams, seed="x", history=history)
    # Ranked 2, 3, 4, 1: Team 2 has played 3, so it meets 4; 3 meets 1.
    assert [t.teams for t in draw.tables] == [(2, 4), (3, 1)]


def test_a_team_floats_down_when_its_group_holds_no_unplayed_opponent() -> None:
    teams = [team(1, 6, 2), team(2, 6, 1), team(3, 4, 1), team(4, 4, 0)]
    history = PairHistory(meetings=((1, 2, "1.1"), (3, 4, "1.1")))
    draw = swiss_pairing(teams, seed="x", history=history)
    assert {t.teams for t in draw.tables} == {(1, 3), (2, 4)}
    first = draw.tables[0].explanation
    assert first.startswith("Team 1 Sakura (6 MP) v Team 3 Kaze (4 MP): ")
    assert "Team 1 Sakura floated down: no unplayed opponent in the 6-point group" in first


def test_the_search_backtracks_to_avoid_a_repeat_further_down() -> None:
    # Greedy 1v2 would leave 3 and 4, who have met: the pairing must be 1v3, 2v4 or 1v4, 2v3.
    teams = [team(1, 6), team(2, 6), team(3, 4), team(4, 4)]
    history = PairHistory(meetings=((3, 4, "1.1"),))
    draw = swiss_pairing(teams, seed="x", history=history)
    assert draw.repeats == 0
    assert (3, 4) not in {t.teams for t in draw.tables}


def test_when_every_pairing_repeats_the_fewest_repeats_are_taken_and_said() -> None:
    teams = [team(1, 4), team(2, 2)]
    history = PairHistory(meetings=((1, 2, "1.1"),))
    draw = swiss_pairing(teams, seed="x", history=history)
    assert draw.repeats == 1
    assert "they met before (round 1.1): no pairing without a repeat exists" in (
        draw.tables[0].explanation
    )


def test_the_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    teams = [team(1, 4), team(2, 2), team(3, 0), team(4, 2), team(5, 0)]
    history = PairHistory(meetings=((1, 2, "1.1"), (3, 4, "1.1")), byes=(5,))
    draw = swiss_pairing(teams, seed="x", history=history)
    assert draw.bye == 3
    assert draw.bye_explanation == "Team 3 Kaze (0 MP) had a bye: lowest ranked without one."


def test_one_team_cannot_be_paired() -> None:
    with pytest.raises(PairingError):
        swiss_pairing([team(1)], seed="x", history=PairHistory())


def test_the_bye_moves_up_when_the_lowest_teams_bye_would_force_a_repeat() -> None:
    # Team 3 is lowest: without it, 1 and 2 (who met) would have to meet again.
    teams = [team(1, 4), team(2, 2), team(3, 0)]
    history = PairHistory(meetings=((1, 2, "1.1"),), byes=())
    draw = swiss_pairing(teams, seed="x", history=history)
    assert draw.bye == 2 and draw.repeats == 0
    assert draw.bye_explanation == (
        "Team 2 Fuji (2 MP) had a bye: next lowest ranked without one: Team 3 Kaze sitting out "
        "would have forced a repeat pairing."
    )
