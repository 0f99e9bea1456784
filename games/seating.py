"""Who sits where in a game, and the seeded seat changes of UECda (席替え).

The engine numbers seats 0…n−1 in turn order; the round's draw puts each entry at a table
position 1…n (`Seat.position`). A game's seating (`Game.seating`) says which position's player
plays each engine seat; a game without one (started before seat changes existed, or under a
preset that never changes seats) plays engine seat i from position i + 1. Every page, the API
and the results read the mapping here, never as `position - 1` on their own.

Seat changes (`Tournament.seat_change_every`): game g of a set is in seating cycle
``(g - 1) // every``. Cycle 0 is the table as drawn; cycle k ≥ 1 is a permutation drawn from the
round's secret seed, so it is as verifiable as the deals once the seed is revealed, and no one
can predict it before (the draw is SHA-256 of the seed; it does not reveal the seed):

1. ``material = f"{seed}/table/{n}/set/{s}/seating/{k}"`` (UTF-8; the seed as its 64 hex
   characters, as in the deal's material `kakumei-deal/1`);
2. ``key = SHA-256(b"kakumei-seating/1\\x00" + material)``; block ``i`` of the stream is
   ``SHA-256(key + i.to_bytes(8, "big"))``, read as big-endian 64-bit words;
3. ``below(m)`` rejects words ``>= 2**64 - 2**64 % m`` (no modulo bias) and returns
   ``word % m``;
4. Fisher–Yates over the positions ``[1, …, n]`` (``for i = n-1 … 1: swap(i, below(i+1))``);
   the result's item i is the position whose player plays engine seat i.

This is the deal's own stream and shuffle under another domain (`games.engine.deal.shuffled`).
Every permutation is equally likely, the table as drawn included (1 in 24 at a table of 4), so
a seat change may leave some or all players where they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.engine.deal import shuffled

if TYPE_CHECKING:
    from games.models import Game
    from tournaments.models import Seat

ALGORITHM = "kakumei-seating/1"


def cycle_of(game_number: int, every: int | None) -> int:
    """The cycle (0, 1, …) a game of a set belongs to when something happens every `every`
    games; always 0 when it never happens (`every` None)."""
    return 0 if every is None else (game_number - 1) // every


def starts_cycle(game_number: int, every: int | None) -> bool:
    """Game `game_number` is the first of a new cycle within its set (never the set's first
    game, which starts the set itself)."""
    return every is not None and game_number > 1 and (game_number - 1) % every == 0


def seating_material(seed_hex: str, table: int, set_number: int, cycle: int) -> str:
    return f"{seed_hex}/table/{table}/set/{set_number}/seating/{cycle}"


def draw_seating(
    seed_hex: str, *, table: int, set_number: int, cycle: int, seats: int
) -> tuple[int, ...]:
    """The table position playing each engine seat in seating cycle `cycle` of a set (see the
    module docstring); cycle 0 is the table as drawn."""
    positions = tuple(range(1, seats + 1))
    if cycle == 0:
        return positions
    material = seating_material(seed_hex, table, set_number, cycle)
    return shuffled(material.encode("utf-8"), ALGORITHM, positions)


def positions_of(game: Game) -> tuple[int, ...]:
    """The table position at each engine seat of `game` (position i + 1 when none is stored)."""
    if game.seating:
        return tuple(int(p) for p in game.seating)
    return tuple(range(1, game.seats + 1))


def position_at(game: Game, seat: int) -> int | None:
    """The table position playing engine seat `seat`, None for no such seat."""
    found = positions_of(game)
    return found[seat] if 0 <= seat < len(found) else None


def seat_at(game: Game, position: int) -> int | None:
    """The engine seat the player at table position `position` plays, None if none."""
    found = positions_of(game)
    return found.index(position) if position in found else None


def by_engine_seat(game: Game | None, seats: Sequence[Seat]) -> list[tuple[int, Seat]]:
    """The table's `Seat` rows as (engine seat, row) in engine-seat (turn) order: as `game`
    seats them, or as drawn when there is no game yet."""
    rows = {s.position: s for s in seats}
    order = positions_of(game) if game is not None else sorted(rows)
    return [(i, rows[p]) for i, p in enumerate(order) if p in rows]


def in_seating(seating: Sequence[int], seats: Sequence[Seat]) -> list[tuple[int, Seat]]:
    """The table's `Seat` rows as (engine seat, row) for a seating not yet stored on a game
    (the next game's, announced before it starts)."""
    rows = {s.position: s for s in seats}
    return [(i, rows[p]) for i, p in enumerate(seating) if p in rows]


def seat_names(game: Game) -> list[str]:
    """The players' names by engine seat, as the game seats them (a quick result's refusal
    names each seat so: "seat 2 (Baba)", the console's numbering)."""
    from tournaments.models import Seat

    rows = Seat.objects.filter(table_id=game.table_id).select_related("entry__player")
    return [seat.entry.player.display_name for _, seat in by_engine_seat(game, list(rows))]
