"""How good a dealt hand is: the points it is expected to score, estimated with the engine.

Pure Python over `games.engine` (no Django here), so the population test and the Celery task
run the very same estimate. The method (docs/ratings.md):

1. rotate the hands over the seats, so that each hand is played once from every seat (the
   seat matters: who leads, who holds a title and gives in the exchange);
2. play each rotation out with four **average players**: each move is the baseline bot's
   (its weakest legal combination; a pass only when it has nothing to play) four times in
   five and a random legal move otherwise, drawn from a generator seeded by the game, so the same
   deal always gets the same estimate;
3. repeat the rotations `ROTATIONS` times; a hand's expected points are the mean of what the
   tournament's points table gives the places it finished in.

Why not the baseline bot alone: four identical deterministic bots finish a deal in the same
order whichever seat each hand sits in, so every estimate is a whole place (0, 1, 2 or 3
points) and predicts real games badly (correlation 0.09 with the points scored in the
population test, against 0.37 for the average players). A 4-seat deal costs 16 playouts,
about 13 ms in the pure engine at JDF rules. A game whose hands are not all known (an open
table, a quick result) has no estimate; the rating then ranks its points unadjusted.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.engine import EngineError, Family

# A playout that has not ended after this many actions is taken as stuck (a bot that keeps
# passing round a table whose rules forbid the lead to pass never happens, but a bound is
# cheaper than a proof for every family).
MAX_ACTIONS = 2000

METHOD = "average-rotations/2"
"""Stored with each estimate, so a later method can tell old estimates apart."""
# How often the estimate's average player makes the baseline bot's move (else a random one).
BASELINE_SHARE = 0.8
# Passes over the rotations: 4 × 4 seats = 16 playouts a 4-seat deal (docs/ratings.md: what
# more would buy, and what it costs).
ROTATIONS = 4


def _number_cards(cards: int) -> int:
    return cards & ((1 << 52) - 1)


def play_strength(move: Any, revolution: bool) -> tuple[int, int]:
    """The baseline bot's order over plays: weakest first (its lowest card, a joker counting
    above every number card; reversed during a revolution), then more cards first (getting
    rid of a pair beats getting rid of a single of the same rank)."""
    cards = int(getattr(move, "cards", 0) or 0)
    numbers = _number_cards(cards)
    if not numbers:
        weakest = 64
    elif revolution:
        weakest = 64 - numbers.bit_length()
    else:
        weakest = (numbers & -numbers).bit_length()
    # Rank-major bits (rank * 4 + suit): compare ranks, not suits.
    return (weakest // 4 if weakest < 64 else 64, -cards.bit_count())


def baseline_move(family: Family, state: Any) -> Any:
    """The deterministic baseline bot's choice: its weakest play, else the first legal move
    (a pass, or a give in the exchange that the engine lists weakest first)."""
    moves = list(family.legal_moves(state))
    if not moves:
        raise EngineError("no legal move in a game that is not over", code="stuck")
    plays = [m for m in moves if not getattr(m, "is_pass", False)]
    if not plays:
        return moves[0]
    revolution = bool(getattr(state, "revolution", False))
    return min(plays, key=lambda m: play_strength(m, revolution))


def play_out(
    family: Family, state: Any, choose: Callable[[Any], Any] | None = None
) -> dict[int, int]:
    """Play `state` to its end with `choose(state) -> move` (the baseline bot by default);
    returns each seat's place."""
    pick = choose or (lambda s: baseline_move(family, s))
    for _ in range(MAX_ACTIONS):
        if family.is_over(state):
            results = family.outcome(state) or ()
            return {r.seat: r.place for r in results}
        state, _events = family.apply(state, pick(state))
    raise EngineError(f"a playout did not end within {MAX_ACTIONS} actions", code="stuck")


def average_player(family: Family, rng: random.Random) -> Callable[[Any], Any]:
    """The estimate's player: the baseline bot's move four times in five, a random legal move
    otherwise (drawn from `rng`) — an average field, neither the bot's perfect consistency
    nor a beginner's."""

    def choose(state: Any) -> Any:
        if rng.random() < BASELINE_SHARE:
            return baseline_move(family, state)
        return rng.choice(list(family.legal_moves(state)))

    return choose


def expected_points(
    family: Family,
    start: Callable[[Sequence[Any]], Any],
    hands: Sequence[Any],
    points_by_place: Sequence[float],
    *,
    seed: str,
    rotations: int = ROTATIONS,
) -> tuple[float, ...]:
    """Each dealt hand's expected points (in the order of `hands`, i.e. by the seat that was
    dealt it): the mean, over `rotations` passes of every rotation of the hands round the
    seats, of the points its place scores. `start(hands_by_seat)` builds the initial state of
    one rotation; `points_by_place[p - 1]` is what place `p` scores; `seed` seeds the average
    players' random moves, so the same deal always gets the same estimate. Raises
    `EngineError` when a playout cannot be played (the caller keeps the game unadjusted)."""
    seats = len(hands)
    rng = random.Random(f"{METHOD}:{seed}")
    choose = average_player(family, rng)
    totals = [0.0] * seats
    for _pass in range(rotations):
        for shift in range(seats):
            # Hand h is played from seat (h + shift) % seats.
            by_seat = [hands[(seat - shift) % seats] for seat in range(seats)]
            places = play_out(family, start(by_seat), choose)
            for hand in range(seats):
                totals[hand] += float(points_by_place[places[(hand + shift) % seats] - 1])
    return tuple(total / (seats * rotations) for total in totals)
