"""大財閥 legal moves: the decisions' moves, else the turn's plays (generated from the hand,
pruned by the table) and pass, and the out-of-turn answers; ``pending`` and ``to_move``."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from .cards import Card
from .daizaibatsu_combos import (
    DECK,
    JOKERS,
    SET,
    STAIRS,
    THREE,
    Combo,
    add,
    from_list,
    holds,
    jokers,
    jokers_alone,
    make,
    numbers,
    strength,
    sub,
    to_list,
)
from .daizaibatsu_judge import (
    Verdict,
    forbidden_finish,
    judge,
)
from .daizaibatsu_state import (
    ACCEPT,
    DESTROY,
    DISCARD,
    DOUBLE_BACK,
    DRAW,
    DREW,
    GIVE,
    PASS,
    PHASE_OVER,
    PLAY,
    TAKE,
    TARGET,
    Move,
    State,
    seat_holds,
    take_options,
    targets,
)
from .family import Decision
from .multideck import EMPTY, Cards

# --- legal moves ---------------------------------------------------------------------------


def legal_moves(state: State) -> Iterator[Move]:
    """Every move now: the owed decisions' moves, else the turn's plays and pass and the
    out-of-turn answers. Jokers: one move per distinct reading of a selection of cards (the
    jokers fill the missing cards of stairs; in sets they name each free suit at most as
    often as it is free); an unknown hand lists no card moves."""
    if state.phase == PHASE_OVER:
        return iter(())
    if state.owed:
        return iter(_decision_moves(state))
    moves = list(plays_of(state, state.turn))
    if not (state.table is None and moves) and not state.passed >> state.turn & 1:
        moves.append(Move(state.turn, PASS))
    moves.extend(_responses(state))
    return iter(moves)


def _decision_moves(state: State) -> list[Move]:
    out: list[Move] = []
    for owed in state.owed:
        seat = owed.seat
        if owed.kind == TARGET:
            out.extend(Move(seat, TARGET, target=t) for t in targets(state, seat))
        elif owed.kind == DOUBLE_BACK:
            out.append(Move(seat, ACCEPT))
            if seat_holds(state, seat, make(EMPTY, 1)):
                out.append(Move(seat, DOUBLE_BACK))
        elif owed.kind == DRAW:
            out.append(Move(seat, DREW, _unseen(state, owed.size)))
        else:
            if owed.kind == TAKE:
                pool: Cards | None = take_options(state)
            elif owed.kind == DESTROY:
                pool = state.hands[owed.to]
            else:
                pool = state.hands[seat]
            if pool is None:
                continue
            for chosen in _choices(pool, owed.size):
                out.append(Move(seat, _ACTION_OF[owed.kind], chosen))
    return out


_ACTION_OF: Final = {GIVE: GIVE, DISCARD: DISCARD, DESTROY: DESTROY, TAKE: TAKE}


def _choices(pool: Cards, count: int) -> list[Cards]:
    """Every distinct selection of ``count`` cards of ``pool``."""
    out: list[Cards] = []
    for chosen in sorted(set(combinations(to_list(pool), count))):
        one = two = 0
        k = 0
        for card in chosen:
            if card >= 52:
                k += 1
            elif one >> card & 1:
                two |= 1 << card
            else:
                one |= 1 << card
        out.append(make(Cards(one, two), k))
    return out


def _unseen(state: State, count: int) -> Cards:
    """A representative draw in open-table mode: the lowest cards not known elsewhere."""
    known = add(add(add(state.flowed, state.discarded), state.destroyed), state.table_cards)
    for hand in state.hands:
        if hand is not None:
            known = add(known, hand)
    return from_list(to_list(sub(DECK, known))[:count])


def plays_of(state: State, seat: int, respond: bool = False) -> Iterator[Move]:
    """The legal plays of ``seat`` (a known hand)."""
    hand = state.hands[seat]
    if hand is None or seat in state.out:
        return
    finishing_count = state.counts[seat]
    leading = state.table is None and not respond  # any play may lead
    for cards, named, combo in _candidates(state, hand, respond):
        if not leading and not isinstance(judge(state, combo, respond), Verdict):
            continue
        if len(cards) == finishing_count and forbidden_finish(state, combo):
            continue
        yield Move(seat, PLAY, cards, named, -1, respond)


def _candidates(
    state: State, hand: Cards, respond: bool
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    """Selections with their joker readings, pruned by the table: its size and kind, and the
    ranks that could beat it (stronger, one weaker for down number, 3s for 砂嵐)."""
    table = state.table
    k = jokers(hand)
    nums = numbers(hand)
    masks = _suit_masks(nums)
    if respond:
        yield from _set_candidates(nums, k, THREE, range(3, 9))
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, range(4, 14), range(1))
        return
    held = masks[0] | masks[1] | masks[2] | masks[3]  # a bit per rank held
    if table is None:
        for j in range(1, min(k, 3) + 1):
            yield make(EMPTY, j), (), jokers_alone(j)
        for rank in range(13):
            if held >> rank & 1:
                yield from _set_candidates(nums, k, rank, None)
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, range(3, 14), None)
        return
    if table.kind == STAIRS:
        yield from _set_candidates(nums, k, THREE, range(3, 4))  # 砂嵐 answers any table
        lengths = range(table.size, 14) if table.revolution else range(table.size, table.size + 1)
        for suit in range(4):
            yield from _stairs_candidates(masks[suit], k, suit, lengths, None)
        return
    if table.kind == JOKERS:  # only ♠3s of the same number, or 砂嵐
        yield from _set_candidates(nums, k, THREE, range(3, 4))
        if table.size < 3:
            yield from _set_candidates(nums, k, THREE, range(table.size, table.size + 1))
        return
    order = state.reversed_order
    floor = strength(table.rank, order) - 1  # down number reaches one rank below
    if table.size >= 4:
        sizes = range(table.size, 9)
    else:
        sizes = range(table.size, table.size + 1)
        if table.size <= k:
            yield make(EMPTY, table.size), (), jokers_alone(table.size)
    sandstorm = True
    for rank in range(13):
        if held >> rank & 1 and strength(rank, order) >= floor:
            yield from _set_candidates(nums, k, rank, sizes)
            if rank == THREE and 3 in sizes:
                sandstorm = False
    if sandstorm:
        yield from _set_candidates(nums, k, THREE, range(3, 4))


def _suit_masks(nums: Cards) -> list[int]:
    """Per suit, a bit per rank held."""
    masks = [0, 0, 0, 0]
    for card in nums:
        masks[card & 3] |= 1 << (card >> 2)
    return masks


def _set_candidates(
    nums: Cards, k: int, rank: int, sizes: range | None
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    base = rank * 4
    per_suit = [(nums.one >> (base + s) & 1) + (nums.two >> (base + s) & 1) for s in range(4)]
    natural = per_suit[0] + per_suit[1] + per_suit[2] + per_suit[3]
    if natural == 0:
        return
    top = min(natural + k, 8)
    for size in range(1, top + 1):
        if sizes is not None and size not in sizes:
            continue
        for j in range(min(k, size - 1) + 1):
            for counts in _suit_counts(per_suit, size - j):
                chosen = _cards_of(rank, counts)
                suits = counts[0] + (counts[1] << 2) + (counts[2] << 4) + (counts[3] << 6)
                if j == 0:
                    yield chosen, (), Combo(SET, rank, size, suits, chosen, 0)
                    continue
                free = [2 - c for c in counts]
                cards = make(chosen, j)
                for named in _joker_suits(free, j):
                    reading = _cards_of(rank, [counts[t] + named.count(t) for t in range(4)])
                    key = suits + sum(1 << (2 * t) for t in named)
                    combo = Combo(SET, rank, size, key, reading, j)
                    yield cards, tuple(base + t for t in named), combo


def _suit_counts(per_suit: list[int], size: int) -> Iterator[list[int]]:
    for a in range(min(per_suit[0], size) + 1):
        for b in range(min(per_suit[1], size - a) + 1):
            for c in range(min(per_suit[2], size - a - b) + 1):
                d = size - a - b - c
                if 0 <= d <= per_suit[3]:
                    yield [a, b, c, d]


def _joker_suits(free: list[int], j: int) -> Iterator[tuple[int, ...]]:
    """The suits ``j`` jokers may name (as multisets), at most as often as each is free."""
    if j == 0:
        yield ()
        return

    def rec(start: int, left: int, acc: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield acc
            return
        for s in range(start, 4):
            if free[s] - acc.count(s) > 0:
                yield from rec(s, left - 1, (*acc, s))

    yield from rec(0, j, ())


def _cards_of(rank: int, counts: list[int]) -> Cards:
    one = two = 0
    for s in range(4):
        c = counts[s]
        if c:
            bit = 1 << (rank * 4 + s)
            one |= bit
            if c == 2:
                two |= bit
    return Cards(one, two)


def _stairs_candidates(
    held: int, k: int, suit: int, lengths: range, starts: range | None
) -> Iterator[tuple[Cards, tuple[Card, ...], Combo]]:
    """Stairs of ``suit`` from the ranks ``held`` (a bit per rank), the jokers filling only
    the missing ranks."""
    if held.bit_count() + k < lengths.start:
        return
    for length in lengths:
        full = (1 << length) - 1
        for start in starts if starts is not None else range(14 - length):
            if start + length > 13:
                break
            window = full << start
            present = held & window
            missing = length - present.bit_count()
            if missing > k or missing == length:
                continue
            one = every = 0
            named: list[Card] = []
            for r in range(start, start + length):
                bit = 1 << (r * 4 + suit)
                every |= bit
                if present >> r & 1:
                    one |= bit
                else:
                    named.append(r * 4 + suit)
            combo = Combo(STAIRS, start, length, 1 << (2 * suit), Cards(every), missing)
            yield make(Cards(one), missing), tuple(named), combo


def _responses(state: State) -> list[Move]:
    out: list[Move] = []
    if state.eight_from >= 0:
        for s in range(state.seats):
            if s != state.eight_from and s not in state.out:
                out.extend(plays_of(state, s, respond=True))
    kill = state.rules.kill_card
    if state.kill_from >= 0 and kill is not None:
        card = from_list([kill])
        for s in range(state.seats):
            if s != state.kill_from and s not in state.out and state.counts[s] >= 2:
                hand = state.hands[s]
                if hand is not None and holds(hand, card):
                    out.append(Move(s, PLAY, card, (), -1, True))
    return out


def pending(state: State) -> tuple[Decision, ...]:
    """The decisions owed now (``target``, ``give``, ``discard``, ``destroy``, ``take``,
    ``double_back``, ``draw``)."""
    return tuple(
        Decision(o.seat, o.kind, o.size or o.amount, o.to if o.to >= 0 else None)
        for o in state.owed
    )


def to_move(state: State) -> tuple[int, ...]:
    """Every seat that may act now: the owed decisions' seats, else the turn and the seats
    that may answer out of turn."""
    if state.phase == PHASE_OVER:
        return ()
    if state.owed:
        return tuple(sorted({o.seat for o in state.owed}))
    seats = {state.turn}
    for move in _responses(state):
        seats.add(move.seat)
    # An unknown hand may hold an answer: its seat may act.
    for s in range(state.seats):
        if s in state.out or state.hands[s] is not None:
            continue
        if state.eight_from >= 0 and s != state.eight_from:
            seats.add(s)
        killing = state.kill_from >= 0 and state.rules.kill_card is not None
        if killing and s != state.kill_from and state.counts[s] >= 2:
            seats.add(s)
    return tuple(sorted(seats))
