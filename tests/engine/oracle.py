"""An independent brute-force oracle for legal moves: try every subset of every hand.

It knows nothing of the core's generator: it builds candidate moves from card
subsets (every annotation that could make one fully specified: ``as`` for jokers
in stairs, beyond the 3 and the 2 included, and for the suits of jokers in sets,
``declare``, 11-back ``choice``, ``respond`` for other seats, the instant-win
declaration) and keeps those :func:`apply` accepts.
"""

from __future__ import annotations

from itertools import combinations

from games.engine import JOKERS, NUMBERS, RANK_MASK, STAIRS, EngineError, Move, State, apply
from games.engine.cards import ABOVE_2, BELOW_3

MoveKey = tuple[int, int, int, str | None, str | None, bool]
"""(seat, cards, as_cards, declare, choice, respond) — the fully specified form."""


def _suit_of_all(nat: int) -> int | None:
    suits = {c & 3 for c in range(52) if nat >> c & 1}
    return suits.pop() if len(suits) == 1 else None


def _rank_set(nat: int) -> set[int]:
    return {c >> 2 for c in range(52) if nat >> c & 1}


def _suits(nat: int) -> set[int]:
    return {c & 3 for c in range(52) if nat >> c & 1}


def candidates(state: State, seat: int, hand: int, max_size: int = 6) -> list[Move]:
    """Every subset of ``hand`` (jokers taken lowest first), each with every annotation
    that could make it fully specified: as-assignments for jokers in stairs (positions
    beyond the 3 and the 2 too) and in sets (the suits), and declarations for one card
    plus two jokers."""
    naturals = [1 << c for c in range(52) if hand >> c & 1]
    jokers = [1 << c for c in (52, 53) if hand >> c & 1]
    out: list[Move] = []
    for n_nat in range(min(len(naturals), max_size) + 1):
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
                        free += [1 << (BELOW_3 + suit), 1 << (ABOVE_2 + suit)]
                        for as_combo in combinations(free, k):
                            as_cards = sum(as_combo)
                            out.append(Move(seat, cards, as_cards=as_cards))
                            if n_nat == 1 and k == 2:
                                out.append(Move(seat, cards, as_cards=as_cards, declare="stairs"))
                    if n_nat == 1 and k == 2:
                        out.append(Move(seat, cards, declare="set"))
                    ranks = _rank_set(nat)
                    if len(ranks) == 1:
                        rank = ranks.pop()
                        free = [1 << (rank * 4 + s) for s in range(4) if s not in _suits(nat)]
                        for j in range(1, k + 1):
                            for as_combo in combinations(free, j):
                                as_cards = sum(as_combo)
                                out.append(Move(seat, cards, as_cards=as_cards))
                                if n_nat == 1 and k == 2:
                                    out.append(Move(seat, cards, as_cards=as_cards, declare="set"))
    return out


def accepted(state: State, move: Move) -> bool:
    try:
        apply(state, move)
    except EngineError:
        return False
    return True


def _canonical(state: State, move: Move) -> bool:
    """Whether an accepted play is in the form legal_moves uses (one form per play)."""
    nat = move.cards & NUMBERS
    k = (move.cards & JOKERS).bit_count()
    stairs_capable = k and _suit_of_all(nat) is not None and move.cards.bit_count() >= 3
    ranks = _rank_set(nat)
    set_capable = len(ranks) == 1
    rules = state.rules
    # A set's jokers carry their suits exactly when joker_suit_choice is in force and a
    # suit is left for them (rule 13b).
    suit_choice = rules.joker_suit_choice and rules.lock_counts_joker_suits and rules.suit_lock
    set_as = set_capable and not move.as_cards & ~RANK_MASK[min(ranks, default=0)]
    set_form = set_as and bool(move.as_cards) == (suit_choice and k > 0 and len(_suits(nat)) < 4)
    if stairs_capable and set_capable:  # one card plus two jokers
        if rules.one_card_two_jokers == "set":
            return move.declare is None and set_form  # always a set
        table = state.table
        if table is None:  # a lead needs the declaration
            return move.declare == "stairs" or (move.declare == "set" and set_form)
        # when following, the table's kind decides; legal_moves omits the declaration
        if table.kind == STAIRS:
            return move.declare is None and bool(move.as_cards)
        return move.declare is None and set_form
    if set_capable and k:
        return set_form
    # the unannotated form of an annotated stairs move is not canonical
    return not (stairs_capable and not move.as_cards)


def oracle_keys(state: State) -> set[MoveKey | str]:
    """Fully specified moves ``apply`` accepts (in-turn and out-of-turn), plus ``"pass"``."""
    turn = state.turn
    keys: set[MoveKey | str] = set()
    if accepted(state, Move.pass_turn(turn)):
        keys.add("pass")
    calls = (None, "up", "down") if state.rules.eleven_back == "choice" else (None,)
    for seat in range(len(state.counts)):
        hand = state.hands[seat]
        respond = seat != turn
        # Out of turn, only small plays are tried: the rules have no larger answers,
        # and trying them all would not change the verdicts, only the run time.
        size = hand.bit_count() if not respond else 2
        for move in candidates(state, seat, hand, size):
            for choice in calls:
                m = Move(
                    seat, move.cards, False, move.as_cards, move.declare, choice, False, respond
                )
                if accepted(state, m) and _canonical(state, m):
                    keys.add((seat, m.cards, m.as_cards, m.declare, choice, respond))
        if hand:
            win = Move(seat, hand, declare="instant_win", respond=respond)
            if accepted(state, win):
                keys.add((seat, hand, 0, "instant_win", None, respond))
    return keys


def legal_keys(moves: list[Move]) -> set[MoveKey | str]:
    return {
        "pass" if m.is_pass else (m.seat, m.cards, m.as_cards, m.declare, m.choice, m.respond)
        for m in moves
    }
