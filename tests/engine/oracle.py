"""An independent brute-force oracle for legal plays: try every subset of the hand."""

from __future__ import annotations

from itertools import combinations

from games.engine import JOKERS, NUMBERS, STAIRS, EngineError, Move, State, apply

MoveKey = tuple[int, int, str | None]
"""(cards, as_cards, declare) — the fully specified form legal_moves uses."""


def _suit_of_all(nat: int) -> int | None:
    suits = {c & 3 for c in range(52) if nat >> c & 1}
    return suits.pop() if len(suits) == 1 else None


def _rank_set(nat: int) -> set[int]:
    return {c >> 2 for c in range(52) if nat >> c & 1}


def candidates(state: State, seat: int, hand: int, max_size: int = 6) -> list[Move]:
    """Every subset of ``hand`` (jokers taken lowest first), each with every annotation
    that could make it fully specified: as-assignments for jokers in stairs, and
    declarations for one card plus two jokers."""
    naturals = [1 << c for c in range(52) if hand >> c & 1]
    jokers = [1 << c for c in (52, 53) if hand >> c & 1]
    out: list[Move] = []
    for n_nat in range(len(naturals) + 1):
        for nat_combo in combinations(naturals, n_nat):
            nat = sum(nat_combo)
            for k in range(len(jokers) + 1):
                size = n_nat + k
                if size == 0 or size > max_size:
                    continue
                cards = nat | sum(jokers[:k])
                out.append(Move(seat, cards))
                if k and n_nat:
                    suit = _suit_of_all(nat)
                    if suit is not None and size >= 3:
                        free = [1 << (r * 4 + suit) for r in range(13) if r not in _rank_set(nat)]
                        for as_combo in combinations(free, k):
                            as_cards = sum(as_combo)
                            out.append(Move(seat, cards, as_cards=as_cards))
                            if n_nat == 1 and k == 2:
                                out.append(Move(seat, cards, as_cards=as_cards, declare="stairs"))
                    if n_nat == 1 and k == 2:
                        out.append(Move(seat, cards, declare="set"))
    return out


def accepted(state: State, move: Move) -> bool:
    try:
        apply(state, move)
    except EngineError:
        return False
    return True


def oracle_keys(state: State) -> set[MoveKey | str]:
    """Fully specified plays ``apply`` accepts, plus ``"pass"``.

    A stairs-with-jokers play counts only in its annotated forms (with ``as``), a
    one-card-plus-two-jokers lead only with ``declare`` — the forms legal_moves uses.
    """
    seat = state.turn
    hand = state.hands[seat]
    keys: set[MoveKey | str] = set()
    if accepted(state, Move.pass_turn(seat)):
        keys.add("pass")
    for move in candidates(state, seat, hand):
        if not accepted(state, move):
            continue
        nat = move.cards & NUMBERS
        k = (move.cards & JOKERS).bit_count()
        stairs_capable = k and _suit_of_all(nat) is not None and move.cards.bit_count() >= 3
        set_capable = len(_rank_set(nat)) == 1
        if stairs_capable and set_capable:  # one card plus two jokers
            table = state.table
            if table is None:
                if move.declare is None:
                    continue  # a lead needs the declaration
            elif move.declare is not None or bool(move.as_cards) != (table.kind == STAIRS):
                continue  # when following, the table's kind decides; legal_moves omits it
        elif stairs_capable and not move.as_cards:
            continue  # the unannotated form of an annotated stairs move
        keys.add((move.cards, move.as_cards, move.declare))
    return keys


def legal_keys(moves: list[Move]) -> set[MoveKey | str]:
    return {"pass" if m.is_pass else (m.cards, m.as_cards, m.declare) for m in moves}
