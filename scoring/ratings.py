"""Ratings across events: a Weng–Lin (openskill Plackett–Luce) replay of rated games.

Pure Python (no Django here): `scoring.services.recompute_ratings` feeds it the rated games
from the database, and the population test (tests/scoring/test_ratings_see_through_the_deal.py)
feeds it simulated games, so both rate with the same function. docs/ratings.md explains the
model and how to read the numbers.

A game is one free-for-all ranking of its table. In the **adjusted** mode a player's
performance is the points they scored minus the points their dealt hand was expected to score
(`scoring.deal_strength`), and the table is ranked by performance; in the **raw** mode it is
ranked by the places played. Equal performances share a rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from openskill.models import PlackettLuce

Key = TypeVar("Key", bound=Hashable)
Mode = Literal["adjusted", "raw"]

# The displayed rating: the conservative estimate μ − 3σ (openskill's `ordinal`), which
# starts at 0 for a newcomer (μ 25, σ 25/3), scaled so a newcomer reads 1500 and one point of
# ordinal reads 40 — numbers chess and go players already read as ratings.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 40
# Performances closer than this are a tie: expected points are means over a few playouts.
TIE_TOLERANCE = 1e-9

# β is the spread of one game's performance around a player's skill. openskill's default
# (25/6) suits games where one result says a lot; a single game of 大富豪 is mostly luck (the
# deal, the order of play), so β is four times that: each game moves a rating less, and a
# long record counts more than a lucky day. Measured on the population test (docs/ratings.md).
BETA = 4 * 25 / 6
_MODEL = PlackettLuce(beta=BETA)
INITIAL_MU: float = _MODEL.mu
INITIAL_SIGMA: float = _MODEL.sigma


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating people read: 1500 + 40 × (μ − 3σ), rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma))


def display_spread(sigma: float) -> int:
    """σ on the displayed scale (the ± shown beside a rating)."""
    return round(DISPLAY_SCALE * sigma)


@dataclass(frozen=True, slots=True)
class RatedGame(Generic[Key]):
    """One game as the rating sees it: who sat there, the points they scored, the places they
    finished and (adjusted mode) the points each one's dealt hand was expected to score."""

    players: tuple[Key, ...]
    points: tuple[float, ...]
    places: tuple[int, ...]
    expected: tuple[float, ...] | None = None


@dataclass(slots=True)
class PlayerRating:
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(slots=True)
class RatingReplay(Generic[Key]):
    """Everyone's rating after the replay, and each game's ratings after it (in game order:
    `history[i]` holds the players of game i)."""

    ratings: dict[Key, PlayerRating] = field(default_factory=dict)
    history: list[dict[Key, tuple[float, float]]] = field(default_factory=list)


def shared_ranks(values: Sequence[float], *, higher_is_better: bool) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of `values`; equal values share the better rank.

    >>> shared_ranks([1.0, 3.0, 3.0, 0.5], higher_is_better=True)
    [3, 1, 1, 4]
    """
    ranks = []
    for value in values:
        if higher_is_better:
            better = sum(1 for other in values if other - value > TIE_TOLERANCE)
        else:
            better = sum(1 for other in values if value - other > TIE_TOLERANCE)
        ranks.append(better + 1)
    return ranks


def game_ranks(game: RatedGame[Key], mode: Mode) -> list[int]:
    """The ranking a game feeds the rating: by performance (points − expected points) when
    adjusted, by place when raw. A game without an estimate is adjusted by the table's mean,
    which leaves the ranking of its points."""
    if mode == "raw":
        return shared_ranks([float(p) for p in game.places], higher_is_better=False)
    if game.expected is None:
        mean = sum(game.points) / len(game.points)
        expected: Sequence[float] = [mean] * len(game.points)
    else:
        expected = game.expected
    performance = [p - e for p, e in zip(game.points, expected, strict=True)]
    return shared_ranks(performance, higher_is_better=True)


def replay_ratings(games: Iterable[RatedGame[Key]], mode: Mode = "adjusted") -> RatingReplay[Key]:
    """Rate `games` in the order given, everyone starting from openskill's prior. The same
    games in the same order give the same numbers (openskill draws nothing at random)."""
    replay: RatingReplay[Key] = RatingReplay()
    for game in games:
        current = [replay.ratings.setdefault(p, PlayerRating()) for p in game.players]
        teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current]
        rated = _MODEL.rate(teams, ranks=[float(r) for r in game_ranks(game, mode)])
        after: dict[Key, tuple[float, float]] = {}
        for player, rating, (new,) in zip(game.players, current, rated, strict=True):
            rating.mu, rating.sigma = float(new.mu), float(new.sigma)
            rating.games += 1
            after[player] = (rating.mu, rating.sigma)
        replay.history.append(after)
    return replay
