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
  leader")`` as a big-endian number modulo the seats (`draw_leader`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping

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
) -> Deal:
    """The deal (hands per seat, blind cards) of one game at one table of a round, under the
    switch values the game is played with (`blind_cards` and `jokers` change the deal)."""
    rules = rules_for_table(ruleset_id, ruleset_version, seats, overrides)
    material = deal_material(seed_hex, table, set_number, game, attempt)
    deal: Deal = family_of(rules).deal(material, rules)
    return deal


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
