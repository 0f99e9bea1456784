"""Seeded deals by commit–reveal (docs/design.md): every table's deal and blind cards follow from
the round's secret seed, so anyone can check them once the seed is revealed.

- seed: 32 random bytes as 64 lower-case hex characters, kept server-side (`Round.seed_secret`);
- commitment: ``SHA-256(seed as ASCII hex text)``, published with the round — check it with
  ``printf %s SEED | sha256sum``;
- the deal of game `g` of set `s` at table `n`: the family's ``deal(material, rules)`` with
  ``material = f"{seed}/table/{n}/set/{s}/game/{g}"`` (a UTF-8 string, `kakumei-deal/1`) and the
  tournament's pinned ruleset for a table of that many seats;
- a game voided and re-dealt (attempt `a` ≥ 2) appends ``/attempt/{a}`` to its material, so
  the re-deal is as verifiable as the first deal and differs from it;
- the leader of a team match's first hand (掼蛋 Guandan): ``SHA-256(f"{seed}/table/{n}/set/{s}/
  leader")`` as a big-endian number modulo the seats (`draw_leader`);
- a duplicate round (`Round.duplicate_deals`, docs/duplicate.md) deals the same cards at every
  table of a group, rotated a seat further at each table: ``material =
  f"{seed}/duplicate/{first}/seats/{n}/set/{s}/game/{g}"`` with `first` the group's first table
  number, and hand `h` goes to engine seat ``(h + rotation) % n`` (`duplicate_groups`,
  `duplicate_material`, `rotate_deal`). A re-deal (attempt ≥ 2) is the table's own deal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from games.engine import family_of
from games.engine.deal import Deal
from tournaments.rulesets import rules_for_table


def new_seed() -> str:
    return secrets.token_bytes(32).hex()


def commitment_for(seed_hex: str) -> str:
    return hashlib.sha256(seed_hex.encode("ascii")).hexdigest()


def deal_material(seed_hex: str, table: int, set_number: int, game: int, attempt: int = 1) -> str:
    material = f"{seed_hex}/table/{table}/set/{set_number}/game/{game}"
    # Attempt 1 keeps the original form: deals published before re-deals existed still verify.
    return material if attempt == 1 else f"{material}/attempt/{attempt}"


def derive_deal(
    seed_hex: str,
    *,
    ruleset_id: str,
    ruleset_version: int,
    seats: int,
    table: int,
    set_number: int,
    game: int,
    attempt: int = 1,
    overrides: Mapping[str, object] | None = None,
    duplicate: DuplicatePlace | None = None,
) -> Deal:
    """The deal (hands per seat, blind cards) of one game at one table of a round, under the
    switch values the game is played with (`blind_cards` and `jokers` change the deal). At a
    table of a duplicate round (`duplicate`: its place in its group), the first attempt is
    the group's deal rotated for the table (`rotate_deal`); a re-deal is the table's own."""
    rules = rules_for_table(ruleset_id, ruleset_version, seats, overrides)
    material = game_material(
        seed_hex, table, set_number, game, attempt, duplicate=duplicate, seats=seats
    )
    deal: Deal = family_of(rules).deal(material, rules)
    if duplicate is not None and attempt == 1:
        return rotate_deal(deal, duplicate.rotation)
    return deal


def game_material(
    seed_hex: str,
    table: int,
    set_number: int,
    game: int,
    attempt: int = 1,
    *,
    duplicate: DuplicatePlace | None = None,
    seats: int = 0,
) -> str:
    """The material a game's deal follows from: its group's duplicate deal on the first
    attempt at a table of a duplicate round, else the table's own (`deal_material`)."""
    if duplicate is not None and attempt == 1:
        return duplicate_material(seed_hex, duplicate.first_table, seats, set_number, game)
    return deal_material(seed_hex, table, set_number, game, attempt)


@dataclass(frozen=True, slots=True)
class DuplicatePlace:
    """Where a table sits in its duplicate group: the group's first table number (part of the
    deal material), the table's index in the group (0-based) and its rotation."""

    first_table: int
    index: int
    rotation: int

    @property
    def group(self) -> int:
        """The group's name as shown: its first table number."""
        return self.first_table


def duplicate_groups(tables: Iterable[tuple[int, int]]) -> dict[int, DuplicatePlace]:
    """Each table's place in the duplicate groups of a round, from (table number, seats).

    Tables of the same size, in table-number order, are cut into consecutive groups of `seats`
    tables (tables of 4: 1–4, 5–8 …), so that every deal of a group is played from every seat;
    a single table left over joins the previous group of its size (alone it would have no one
    to compare with), a larger leftover is a group of its own. Table index `i` of a group has
    rotation ``i % seats``. Later rounds seat by score band, so a group holds players of
    comparable strength."""
    by_size: dict[int, list[int]] = {}
    for number, seats in sorted(tables):
        by_size.setdefault(seats, []).append(number)
    places: dict[int, DuplicatePlace] = {}
    for seats, numbers in by_size.items():
        groups = [numbers[i : i + seats] for i in range(0, len(numbers), seats)]
        if len(groups) > 1 and len(groups[-1]) == 1:
            groups[-2].extend(groups.pop())
        for group in groups:
            for index, number in enumerate(group):
                places[number] = DuplicatePlace(group[0], index, index % seats)
    return places


def duplicate_key(first_table: int, seats: int, set_number: int, game: int) -> str:
    """The duplicate deal's material without the seed (`Game.deal_key`): the games with the
    same key in one round were dealt the same cards."""
    return f"duplicate/{first_table}/seats/{seats}/set/{set_number}/game/{game}"


def duplicate_material(
    seed_hex: str, first_table: int, seats: int, set_number: int, game: int
) -> str:
    return f"{seed_hex}/{duplicate_key(first_table, seats, set_number, game)}"


def rotate_deal(dealt: Deal, rotation: int) -> Deal:
    """The deal with hand `h` at engine seat ``(h + rotation) % seats``; the blind cards stay."""
    seats = len(dealt.hands)
    hands = tuple(dealt.hands[(seat - rotation) % seats] for seat in range(seats))
    return replace(dealt, hands=hands)


def dealt_hand(seat: int, rotation: int, seats: int) -> int:
    """Which hand of a duplicate deal the engine seat holds: ``(seat - rotation) % seats``."""
    return (seat - rotation) % seats


def leader_material(seed_hex: str, table: int, set_number: int) -> str:
    return f"{seed_hex}/table/{table}/set/{set_number}/leader"


def draw_leader(seed_hex: str, *, table: int, set_number: int, seats: int) -> int:
    """The seat that leads a team match's first hand (掼蛋 Guandan), drawn by lot from the
    round's seed: ``SHA-256(f"{seed}/table/{n}/set/{s}/leader")`` read as a big-endian number,
    modulo the seats. A match's first hand has no previous finish to name its leader (at the
    table the players cut for it), and a known-deal hand needs one before its first move; the
    seed makes the draw as checkable as the deal once it is revealed, and a re-dealt first
    hand (a void) keeps the same leader. (2**256 is a multiple of 4: no bias.)"""
    digest = hashlib.sha256(leader_material(seed_hex, table, set_number).encode()).digest()
    return int.from_bytes(digest, "big") % seats
