"""A simulated population with hidden true skills, rated as the service rates them.

Each player's skill is the probability of making the baseline bot's move rather than a random
legal one; tables of 4 are drawn at random every round and every game is a fresh seeded deal
(`games.engine.deal`). The expectation comes from `scoring.deal_strength` and the ratings
from `scoring.ratings.replay_ratings`, the function `scoring.services.recompute_ratings` calls.

What holds (docs/ratings.md has the figures): the deal estimate predicts the points a hand
scores, subtracting it takes deal luck out of each game's result, and the deal-adjusted
totals rank the players closer to their true skill than raw points. What does not hold on
every seed: the openskill rating (ranks only, one game at a time) ranks the players a little
worse than the plain sum of points, with or without the adjustment; the test prints the four
Spearman figures per seed and asserts only what holds.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import JDF, family_of
from games.engine import deal as deal_cards
from scoring.deal_strength import baseline_move, expected_points, play_out
from scoring.ratings import RatedGame, replay_ratings

POINTS = (3, 2, 1, 0)
PLAYERS = 24
ROUNDS = 40  # 6 tables a round: 240 games a seed, each player plays 40
SEEDS = (1, 2, 3, 4, 5)
FAMILY = family_of(JDF)


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1…n of `values`, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    return cov / (vx * vy) ** 0.5


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    return pearson(average_ranks(xs), average_ranks(ys))


@dataclass(frozen=True)
class Population:
    skills: list[float]
    games: list[RatedGame[int]]

    def totals(self, adjusted: bool) -> list[float]:
        out = [0.0] * len(self.skills)
        for game in self.games:
            assert game.expected is not None
            for player, points, expected in zip(
                game.players, game.points, game.expected, strict=True
            ):
                out[player] += points - expected if adjusted else points
        return out

    def ratings(self, mode: str) -> list[float]:
        rated = replay_ratings(self.games, "adjusted" if mode == "adjusted" else "raw")
        return [rated.ratings[p].ordinal for p in range(len(self.skills))]


def simulate(seed: int) -> Population:
    rng = random.Random(seed)
    skills = [0.1 + 0.85 * i / (PLAYERS - 1) for i in range(PLAYERS)]
    rng.shuffle(skills)
    games: list[RatedGame[int]] = []
    for round_number in range(ROUNDS):
        field = list(range(PLAYERS))
        rng.shuffle(field)
        for table in range(PLAYERS // 4):
            players = field[table * 4 : table * 4 + 4]
            dealt = deal_cards(f"population-{seed}-{round_number}-{table}", JDF)

            def start(hands: Sequence[int], blind: int = dealt.blind) -> object:
                return FAMILY.new_game(JDF, hands=list(hands), blind=blind)

            def choose(state: object, players: list[int] = players) -> object:
                seat = FAMILY.to_move(state)[0]
                if rng.random() < skills[players[seat]]:
                    return baseline_move(FAMILY, state)
                return rng.choice(list(FAMILY.legal_moves(state)))

            places = play_out(FAMILY, start(dealt.hands), choose)
            expected = expected_points(
                FAMILY, start, dealt.hands, POINTS, seed=f"{seed}-{round_number}-{table}"
            )
            games.append(
                RatedGame(
                    players=tuple(players),
                    points=tuple(float(POINTS[places[s] - 1]) for s in range(4)),
                    places=tuple(places[s] for s in range(4)),
                    expected=expected,
                )
            )
    return Population(skills, games)


@functools.cache
def populations() -> dict[int, Population]:
    """Simulated once for the module's tests (about 20 s in the pure engine)."""
    return {seed: simulate(seed) for seed in SEEDS}


def test_the_deal_estimate_predicts_the_points_a_hand_scores() -> None:
    points = [p for pop in populations().values() for g in pop.games for p in g.points]
    expected = [e for pop in populations().values() for g in pop.games for e in g.expected or ()]
    correlation = pearson(expected, points)
    print(f"\ncorrelation of expected and scored points over {len(points)} hands: {correlation}")
    assert correlation > 0.15


def test_subtracting_the_expectation_takes_deal_luck_out_of_each_result() -> None:
    raw = [p for pop in populations().values() for g in pop.games for p in g.points]
    adjusted = [
        p - e
        for pop in populations().values()
        for g in pop.games
        for p, e in zip(g.points, g.expected or (), strict=True)
    ]

    def variance(xs: list[float]) -> float:
        mean = sum(xs) / len(xs)
        return sum((x - mean) ** 2 for x in xs) / len(xs)

    print(f"\nvariance of a result: raw {variance(raw):.3f}, adjusted {variance(adjusted):.3f}")
    assert variance(adjusted) < 0.97 * variance(raw)


def test_deal_adjusted_results_rank_players_closer_to_their_true_skill() -> None:
    print("\nseed  raw-points  adjusted-points  raw-rating  adjusted-rating")
    figures = []
    for seed, pop in populations().items():
        row = (
            spearman(pop.totals(adjusted=False), pop.skills),
            spearman(pop.totals(adjusted=True), pop.skills),
            spearman(pop.ratings("raw"), pop.skills),
            spearman(pop.ratings("adjusted"), pop.skills),
        )
        figures.append(row)
        print(f"{seed:4}  " + "  ".join(f"{v:10.3f}" for v in row))
    means = [sum(row[i] for row in figures) / len(figures) for i in range(4)]
    print("mean  " + "  ".join(f"{v:10.3f}" for v in means))
    raw_points, adjusted_points, _raw_rating, adjusted_rating = means
    assert adjusted_points > raw_points
    # The rating sees skill: strongly, though not as well as the plain sum of points here.
    assert all(row[3] > 0.7 for row in figures)
    assert adjusted_rating > 0.75


def test_spearman_averages_ties() -> None:
    assert average_ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert round(spearman([1, 2, 3, 4], [4, 3, 2, 1]), 9) == -1.0
