"""The bridge from stored games to the engine: parse move payloads, rebuild state from moves.

A game's state is always `rebuild(game)`: its set-up (`new_game` from the stored deal, titles
and leader) followed by every *effective* action (undone actions left out) replayed through the
engine. Accepted actions were validated by `engine.apply` when they were stored, so they are
replayed with `apply` too (cheap at a few dozen moves, and it stays right for hand-entered
moves that are not in `legal_moves`' canonical form, which `apply_unchecked` requires).

Every write stores the state after it on the game row (`state_snapshot`, with the version it
describes), so the next write restores it instead of replaying; nothing is cached in a process,
so every worker reads the same state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games import offline
from games.engine import (
    TITLES,
    Family,
    Placing,
    RecordError,
    RuleSet,
    State,
    family_of,
    final_placings,
)
from games.engine.daizaibatsu_rules import FAMILY as DAIZAIBATSU
from games.engine.snapshot import SnapshotError
from games.models import Game
from games.models import Move as MoveRow
from games.offline import QuickError
from games.seating import seat_names
from tournaments.deals import deal_material
from tournaments.rulesets import rules_for_table


@dataclass(frozen=True, slots=True)
class BadMove(Exception):
    """A payload that is not a move at all (HTTP 400/422); the engine never saw it."""

    code: str
    message_en: str
    message_ja: str


# Form errors keep the codes clients already handle; every other form error is a bad payload.
_FORM_CODES = frozenset({"unknown_card", "invalid_combination"})


def family_for(game: Game) -> Family:
    """The engine family the game's ruleset belongs to (大富豪 for every preset so far)."""
    return family_of(rules_for_game(game))


def parse_move(game: Game, payload: object, family: Family | None = None) -> Any:
    """The family's move from a record-format move object (a 大富豪 play, pass or `give`);
    a play with `respond: true` is an out-of-turn action, judged as such by the engine.
    `family`: the game's (`family_for`), when the caller already has it."""
    try:
        return (family or family_for(game)).move_from_json(payload, "move", game.seats)
    except RecordError as error:
        code = error.code if error.code in _FORM_CODES else "bad_payload"
        raise BadMove(code, error.message_en, error.message_ja) from None


def canonical(game: Game, move: Any) -> dict[str, object]:
    """The record-format object of a parsed move (what is stored as `Move.payload`)."""
    return family_for(game).move_to_json(move)


def fingerprint(payload: object) -> str:
    """SHA-256 of a payload's canonical JSON: equal payloads (in any key order) match."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def rules_for_game(game: Game) -> RuleSet:
    return rules_for_table(
        game.ruleset_id, game.ruleset_version, game.seats, game.ruleset_overrides
    )


def initial_state(game: Game, rules: RuleSet | None = None) -> Any:
    """The game's state before its first action (`rules`: the game's, when already known)."""
    hands: list[list[str] | None] = list(game.hands) or [None] * game.seats
    unknown = any(h is None for h in hands)
    rules = rules or rules_for_game(game)
    if rules.family == DAIZAIBATSU:
        return _with_pile(game, rules, hands, unknown)
    if game.match is not None:  # a hand of a partnership match (掼蛋): what the match carries
        return family_of(rules).new_game(rules, hands=hands, match=game.match, leader=game.leader)
    return family_of(rules).new_game(
        rules,
        hands=hands,
        blind=game.blind,
        titles=game.titles,
        leader=game.leader,
        counts=game.counts if unknown else None,
    )


def deal_seed(game: Game) -> str:
    """The game's deal material (`tournaments.deals`): the seed its deal and, in 大財閥, every
    renewal of its draw pile follow from, so the revealed seed verifies each draw."""
    return deal_material(
        game.table.round.seed_secret,
        game.table.number,
        game.set_number,
        game.game_number,
        game.attempt,
    )


def _with_pile(game: Game, rules: RuleSet, hands: list[list[str] | None], unknown: bool) -> Any:
    """A 大財閥 game: its hands and draw pile (山札) as stored; a known pile is renewed by the
    engine's derivation on the game's deal seed (an imported game's: its record's seed). An
    open table has no pile to know, and the engine only counts its cards."""
    if game.is_imported:
        # Played elsewhere: renewed as its record said, whatever the round's seed is.
        seed: str | None = game.record_seed or None
    else:
        seed = deal_seed(game) if game.pile is not None else None
    return family_of(rules).new_game(
        rules,
        hands=hands,
        counts=game.counts if unknown else None,
        pile=game.pile,
        seed=seed,
        leader=game.leader,
    )


def effective_actions(rows: Iterable[MoveRow]) -> list[MoveRow]:
    """The action rows still in force, in order: undone ones (approved undos) left out."""
    rows = list(rows)
    decisions = {r.ref_seq: r.approved for r in rows if r.kind == MoveRow.Kind.DECISION}
    stack: list[MoveRow] = []
    for row in rows:
        if row.kind == MoveRow.Kind.ACTION:
            stack.append(row)
        elif row.kind == MoveRow.Kind.UNDO:
            approved = row.approved if row.approved is not None else decisions.get(row.seq)
            if approved and stack and stack[-1].seq == row.ref_seq:
                stack.pop()
    return stack


def rebuild(game: Game, rows: Sequence[MoveRow] | None = None) -> Any:
    """The game's current state: set-up plus effective actions, through the engine.

    From the game row's snapshot when it describes the current version (every write stores
    one, so the next move never replays the log), else by replaying the log (`rows`, fetched
    when not given).
    """
    # The ruleset once per rebuild, not once per replayed row.
    rules = rules_for_game(game)
    family = family_of(rules)
    start = initial_state(game, rules)
    if rows is None and game.state_snapshot is not None and game.snapshot_version == game.version:
        try:
            return family.restore(start.setup, game.state_snapshot)
        except SnapshotError:
            pass  # written by another engine version: replay instead
    if rows is None:
        rows = list(game.moves.order_by("seq"))
    state = start
    for row in effective_actions(rows):
        state, _ = family.apply(state, parse_move(game, row.payload, family))
    return state


# --- quick results ------------------------------------------------------------------------


def quick_placings(
    game: Game, finishing_order: Sequence[int], fouls: Sequence[int], miyako_ochi: int | None
) -> tuple[Placing, ...]:
    """Placings from a game's quick result (`games.offline.quick_placings`, which the offline
    console runs in the browser too)."""
    return offline.quick_placings(
        rules_for_game(game),
        game.seats,
        game.titles,
        finishing_order,
        fouls,
        miyako_ochi,
        seat_names(game),
    )


def titles_for(seats: int) -> tuple[str, ...] | None:
    return TITLES.get(seats)


def _others_in_order(still_in: list[int], state: Any, order: Sequence[int]) -> list[int]:
    """The players still holding cards when one leaves, in the order they are placed: by fewest
    cards left (ties: in play order from the seat in turn) when ``state`` is given, else the
    referee's ``order``, which must name each of them once."""
    if state is not None:
        seats = len(state.counts)
        turn = state.turn
        return sorted(still_in, key=lambda s: (state.counts[s], (s - turn) % seats))
    if sorted(order) != sorted(still_in):
        raise QuickError(
            "forfeit_order_invalid",
            "give the finishing order of every other player still holding cards",
            "残っている他の全員の順位を入力してください",
        )
    return list(order)


def _pile_game_forfeit(
    game: Game, state: Any, leaver: int, *, others_by_cards: bool, order: Sequence[int]
) -> tuple[Placing, ...]:
    """`forfeit_placings` for 大財閥: no fouls nor 都落ち; those out keep their places in the
    order they went out (`State.out`), then the others, then the leaver; titled by place."""
    seats = game.seats
    out: list[int] = [] if state is None else list(state.out)
    if leaver in out:
        raise QuickError(
            "forfeit_already_out",
            "that player has already finished this game",
            "その人は既に上がっています",
        )
    still_in = _others_in_order(
        [s for s in range(seats) if s not in out and s != leaver],
        state if others_by_cards else None,
        order,
    )
    titles = titles_for(seats)
    return tuple(
        Placing(seat, place, titles[place - 1] if titles else None, False, False)
        for place, seat in enumerate([*out, *still_in, leaver], start=1)
    )


def forfeit_placings(
    game: Game,
    state: State | None,
    leaver: int,
    *,
    others_by_cards: bool,
    order: Sequence[int] = (),
) -> tuple[Placing, ...]:
    """Placings when `leaver` leaves the game mid-way (途中棄権): they are placed last; those
    already out keep their places; the others still holding cards finish after them, by fewest
    cards left (ties: in play order from the seat in turn) when `others_by_cards`, else in
    `order` (the referee's). A quick-mode game has no state: `order` then names every other
    seat in finishing order."""
    seats = game.seats
    if not 0 <= leaver < seats:
        raise QuickError("forfeit_seat_invalid", "no such seat", "その席はありません")
    if rules_for_game(game).family == DAIZAIBATSU:
        return _pile_game_forfeit(game, state, leaver, others_by_cards=others_by_cards, order=order)
    if state is None:
        clean: tuple[int, ...] = ()
        fouls: tuple[int, ...] = ()
        miyako: int | None = None
        miyako_at = 0
        still_in = [s for s in range(seats) if s != leaver]
        by_cards = False
    else:
        if state.out >> leaver & 1 or leaver == state.miyako:
            raise QuickError(
                "forfeit_already_out",
                "that player has already finished this game",
                "その人は既に上がっています",
            )
        clean, fouls, miyako_at = state.clean, state.fouls, state.miyako_at
        miyako = state.miyako if state.miyako >= 0 else None
        still_in = [s for s in range(seats) if not state.out >> s & 1 and s not in (leaver, miyako)]
        by_cards = others_by_cards
    still_in = _others_in_order(still_in, state if by_cards else None, order)
    base = final_placings(
        rules_for_game(game),
        seats,
        clean=[*clean, *still_in],
        remaining=[leaver],
        fouls=fouls,
        miyako=miyako,
        miyako_at=miyako_at,
    )
    ranked = sorted(base, key=lambda p: p.place or seats)
    ranked = [p for p in ranked if p.seat != leaver] + [next(p for p in base if p.seat == leaver)]
    titles = titles_for(seats)
    return tuple(
        Placing(p.seat, i + 1, titles[i] if titles else None, p.foul, p.miyako_ochi)
        for i, p in enumerate(ranked)
    )
