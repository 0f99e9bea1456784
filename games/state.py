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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.engine import (
    TITLES,
    InvalidNotation,
    Move,
    Placing,
    RuleSet,
    State,
    apply,
    final_placings,
    new_game,
    parse_card,
    parse_cards,
    restore,
)
from games.engine.cards import parse_joker_targets
from games.engine.record import move_to_json
from games.engine.snapshot import SnapshotError
from games.models import Game
from games.models import Move as MoveRow
from tournaments.rulesets import rules_for_table

MOVE_KEYS = frozenset({"seat", "play", "pass", "as", "declare", "choice", "give", "respond"})


@dataclass(frozen=True, slots=True)
class BadMove(Exception):
    """A payload that is not a move at all (HTTP 400/422); the engine never saw it."""

    code: str
    message_en: str
    message_ja: str


def _bad(en: str, ja: str, code: str = "bad_payload") -> BadMove:
    return BadMove(code, en, ja)


def _card_list(value: object, key: str) -> int:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"'{key}' must be a list of cards", f"'{key}' はカードのリストです")
    try:
        if key == "as":
            return parse_joker_targets(value)
        for name in value:
            parse_card(name)
        return parse_cards(value)
    except InvalidNotation as error:
        raise _bad(str(error), "不明なカードです", code="unknown_card") from None


def parse_move(payload: object, seats: int) -> Move:
    """An engine `Move` from a record-format move object (a play, a pass or a `give`); a play
    with `respond: true` is an out-of-turn action, judged as such by the engine."""
    if not isinstance(payload, Mapping):
        raise _bad("a move is a JSON object", "手は JSON オブジェクトです")
    unknown = set(payload) - MOVE_KEYS
    if unknown:
        raise _bad(f"unknown key {sorted(unknown)[0]!r}", f"不明なキー {sorted(unknown)[0]!r}")
    seat = payload.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise _bad(f"'seat' must be 0..{seats - 1}", f"'seat' は 0〜{seats - 1} です")
    kinds = [k for k in ("play", "pass", "give") if k in payload]
    if len(kinds) != 1:
        raise _bad(
            "a move has exactly one of play, pass or give",
            "play・pass・give のどれか一つを指定してください",
        )
    respond = _respond(payload)
    if kinds[0] == "pass":
        if respond:
            raise _bad("a pass is never out of turn", "パスは手番外（respond）にはできません")
        # `respond: false` is the default, written or not (canonical() leaves it out).
        if payload["pass"] is not True or set(payload) - {"seat", "pass", "respond"}:
            raise _bad("a pass is {seat, pass: true}", "パスは {seat, pass: true} です")
        return Move.pass_turn(seat)
    if kinds[0] == "give":
        if set(payload) - {"seat", "give"}:
            raise _bad("a give is {seat, give: [cards]}", "交換は {seat, give: [...]} です")
        return Move.give(seat, _card_list(payload["give"], "give"))
    cards = _card_list(payload["play"], "play")
    if not cards:
        raise _bad("a play needs cards", "出すカードを選んでください", code="invalid_combination")
    as_cards = 0
    if "as" in payload:
        value = payload["as"]
        if isinstance(value, Mapping) and set(value) == {"JK"}:
            value = value["JK"]
        if isinstance(value, str):
            value = [value]
        # What jokers stand for: cards, or -S/+S … beyond the ends of stairs (joker_beyond_ends).
        as_cards = _card_list(value, "as")
    declare = payload.get("declare")
    if declare is not None and not isinstance(declare, str):
        raise _bad("'declare' must be a string", "'declare' は文字列です")
    choice = payload.get("choice")
    if choice is not None and not isinstance(choice, str):
        choice = json.dumps(choice, sort_keys=True)
    return Move(seat, cards, False, as_cards, declare, choice, respond=respond)


def _respond(payload: Mapping[str, object]) -> bool:
    """The `respond` flag: true marks an out-of-turn action (a ♥3 answering a lone joker, an
    イッツー declared by a seat not in turn). Only a JSON boolean: "1" or 1 is a client bug."""
    value = payload.get("respond", False)
    if not isinstance(value, bool):
        raise _bad("'respond' must be true or false", "'respond' は true か false です")
    return value


def canonical(move: Move) -> dict[str, object]:
    """The record-format object of a parsed move (what is stored as `Move.payload`)."""
    return move_to_json(move)


def fingerprint(payload: object) -> str:
    """SHA-256 of a payload's canonical JSON: equal payloads (in any key order) match."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def rules_for_game(game: Game) -> RuleSet:
    rules = rules_for_table(game.ruleset_id, game.ruleset_version, game.seats)
    return rules.with_overrides(**game.ruleset_overrides) if game.ruleset_overrides else rules


def initial_state(game: Game) -> State:
    hands: list[list[str] | None] = list(game.hands) or [None] * game.seats
    unknown = any(h is None for h in hands)
    return new_game(
        rules_for_game(game),
        hands,
        blind=game.blind,
        titles=game.titles,
        leader=game.leader,
        counts=game.counts if unknown else None,
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


def rebuild(game: Game, rows: Sequence[MoveRow] | None = None) -> State:
    """The game's current state: set-up plus effective actions, through the engine.

    From the game row's snapshot when it describes the current version (every write stores
    one, so the next move never replays the log), else by replaying the log (`rows`, fetched
    when not given).
    """
    start = initial_state(game)
    if rows is None and game.state_snapshot is not None and game.snapshot_version == game.version:
        try:
            return restore(start.setup, game.state_snapshot)
        except SnapshotError:
            pass  # written by another engine version: replay instead
    if rows is None:
        rows = list(game.moves.order_by("seq"))
    state = start
    for row in effective_actions(rows):
        state, _ = apply(state, parse_move(row.payload, game.seats))
    return state


# --- quick results ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuickError(Exception):
    code: str
    message_en: str
    message_ja: str


def quick_placings(
    game: Game, finishing_order: Sequence[int], fouls: Sequence[int], miyako_ochi: int | None
) -> tuple[Placing, ...]:
    """Placings from a quick result, by the engine's own title assignment (JDF §19).

    `finishing_order`: the clean finishers in the order they went out, ending with the player
    left holding cards; `fouls`: foul finishers (反則あがり) in the order they fouled;
    `miyako_ochi`: the previous 大富豪 when they fell (都落ち). The titles are the engine's
    (`final_placings`), so quick results and move-by-move games follow the same rules.
    """
    seats = game.seats
    everyone = [*finishing_order, *fouls, *([miyako_ochi] if miyako_ochi is not None else [])]
    if sorted(everyone) != list(range(seats)):
        raise QuickError(
            "quick_incomplete",
            f"every seat 0..{seats - 1} must appear exactly once",
            "全員の結果を一度ずつ入力してください",
        )
    if not finishing_order:
        raise QuickError(
            "quick_incomplete", "someone is left holding cards", "最後に残った人がいません"
        )
    rules = rules_for_game(game)
    titles = game.titles
    daifugo = titles.index("daifugo") if titles else None
    if miyako_ochi is not None:
        if not rules.miyako_ochi or daifugo is None:
            raise QuickError(
                "quick_miyako_invalid",
                "都落ち only happens to the previous 大富豪 under a ruleset with 都落ち",
                "都落ちは前局の大富豪にのみ起こります",
            )
        if miyako_ochi != daifugo:
            raise QuickError(
                "quick_miyako_invalid",
                f"only seat {daifugo}, the previous 大富豪, can fall (都落ち)",
                f"都落ちは前局の大富豪（{daifugo}番席）だけです",
            )
    elif (
        rules.miyako_ochi
        and daifugo is not None
        and daifugo not in fouls
        and len(finishing_order) > 1
        and finishing_order[0] != daifugo
    ):
        # Someone else finished first while the 大富豪 still held cards: 都落ち is automatic.
        raise QuickError(
            "quick_miyako_missing",
            f"seat {finishing_order[0]} finished before the previous 大富豪: mark 都落ち",
            "前局の大富豪より先に上がった人がいます：都落ちを入力してください",
        )
    return final_placings(
        rules,
        seats,
        clean=finishing_order[:-1],
        remaining=finishing_order[-1:],
        fouls=fouls,
        miyako=miyako_ochi,
    )


def titles_for(seats: int) -> tuple[str, ...] | None:
    return TITLES.get(seats)


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
    if by_cards and state is not None:
        turn = state.turn
        still_in.sort(key=lambda s: (state.counts[s], (s - turn) % seats))
    else:
        if sorted(order) != sorted(still_in):
            raise QuickError(
                "forfeit_order_invalid",
                "give the finishing order of every other player still holding cards",
                "残っている他の全員の順位を入力してください",
            )
        still_in = list(order)
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
