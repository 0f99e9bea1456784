"""A simulated population with hidden true skills: the deal-adjusted rating ranks the players
closer to their true skill (Spearman) than their raw points do.

Each player's skill is the probability of making the baseline bot's move rather than a random
legal one; tables of 4 are drawn at random every round and every game is a fresh seeded deal
(`games.engine.deal`). Both columns are rated by `scoring.ratings.replay_ratings`, the function
the service's recompute uses, with the expectation from `scoring.deal_strength`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine import JDF, family_of
from games.engine import deal as deal_cards
from scoring.deal_strength import baseline_move, expected_points, play_out
from scoring.ratings import RatedGame, replay_ratings

POINTS = (3, 2, 1, 0)
PLAYERS = 24
ROUNDS = 40  # 6 tables a round: 150 games, each player plays 25
SEEDS = (1, 2, 3)
FAMILY = family_of(JDF)


def average_ranks(values: Sequence[float]) -> list[float]:
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


def simulate(seed: int) -> tuple[float, float]:
    """Spearman with true skill of (raw total points, deal-adjusted rating)."""
    rng = random.Random(seed)
    skills = [0.1 + 0.85 * i / (PLAYERS - 1) for i in range(PLAYERS)]
    rng.shuffle(skills)
    raw = [0.0] * PLAYERS
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
            points = tuple(float(POINTS[places[s] - 1]) for s in range(4))
            for seat, player in enumerate(players):
                raw[player] += points[seat]
            expected = expected_points(
                FAMILY, start, dealt.hands, POINTS, seed=f"{seed}-{round_number}-{table}"
            )
            games.append(
                RatedGame(
                    players=tuple(players),
                    points=points,
                    places=tuple(places[s] for s in range(4)),
                    expected=expected,
                )
            )
    ratings = replay_ratings(games, "adjusted").ratings
    adjusted = [ratings[p].ordinal for p in range(PLAYERS)]
    return spearman(raw, skills), spearman(adjusted, skills)


def test_the_deal_adjusted_rating_ranks_players_closer_to_their_true_skill() -> None:
    figures = [simulate(seed) for seed in SEEDS]
    print("\nseed  raw-points  adjusted-rating")
    for seed, (raw, adjusted) in zip(SEEDS, figures, strict=True):
        print(f"{seed:4}  {raw:10.3f}  {adjusted:15.3f}")
    mean_raw = sum(raw for raw, _ in figures) / len(figures)
    mean_adjusted = sum(adjusted for _, adjusted in figures) / len(figures)
    print(f"mean  {mean_raw:10.3f}  {mean_adjusted:15.3f}")
    assert all(adjusted > raw for raw, adjusted in figures)
    assert mean_adjusted > mean_raw + 0.03


def test_spearman_averages_ties() -> None:
    assert average_ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert round(spearman([1, 2, 3, 4], [4, 3, 2, 1]), 9) == -1.0
