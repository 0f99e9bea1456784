"""Guandan property tests: no crash on any input, the 108 cards conserved, replays
deterministic, and legal_moves equal to a brute force over every selection of small hands."""

from __future__ import annotations

import contextlib
import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import MOVE_CODES, EngineError, IllegalMove
from games.engine.guandan import (
    GUANDAN,
    GUANDAN_CN,
    GUANDAN_PAGAT,
    PASS,
    PLAY,
    Combo,
    Match,
    Move,
    State,
    apply,
    deal_hands,
    move_from_json,
    new_game,
    next_match,
    readings,
    wild_card,
)
from games.engine.multideck import DOUBLE_DECK, EMPTY, Cards, from_cards
from games.engine.record import export_record, replay


def random_states(seed: int, rules=GUANDAN_CN, chained: bool = True):  # type: ignore[no-untyped-def]
    """Every state of a random hand (and, ``chained``, of the next hand with its tribute)."""
    rng = random.Random(seed)
    match = Match()
    for hand in range(2 if chained else 1):
        hands = deal_hands(f"{seed}/{hand}", rules)
        state = new_game(rules, list(hands), match=match, leader=None if match.previous else 0)
        yield state
        while not GUANDAN.is_over(state):
            state, _ = apply(state, rng.choice(list(GUANDAN.legal_moves(state))))
            yield state
        match = next_match(state)


def cards_in_play(state: State) -> Cards:
    """Hands, cards played, and tributes paid but not yet received."""
    total = state.played
    for hand in state.hands:
        total = total + hand
    for seat, card in enumerate(state.paid):
        if card >= 0 and state.gets[seat] < 0:
            total = total + from_cards([card])
    return total


@settings(max_examples=8)
@given(st.integers(0, 10_000), st.sampled_from([GUANDAN_CN, GUANDAN_PAGAT]))
def test_the_108_cards_are_always_all_there(seed: int, rules) -> None:  # type: ignore[no-untyped-def]
    for state in random_states(seed, rules):
        assert cards_in_play(state) == DOUBLE_DECK


@settings(max_examples=6)
@given(st.integers(0, 10_000))
def test_a_replay_is_deterministic(seed: int) -> None:
    rng = random.Random(seed)
    start = new_game(GUANDAN_CN, list(deal_hands(seed, GUANDAN_CN)), leader=seed % 4)
    state, moves, log = start, [], []
    while not GUANDAN.is_over(state):
        move = rng.choice(list(GUANDAN.legal_moves(state)))
        state, events = apply(state, move)
        moves.append(move)
        log.append([e.to_dict() for e in events])
    record = json.loads(json.dumps(export_record(start, moves)))
    first, second = replay(record), replay(record)
    assert first.state == second.state == state
    assert [[e.to_dict() for e in v.events] for v in first.moves] == log


def any_cards() -> st.SearchStrategy[Cards]:
    return st.lists(st.integers(0, 53), max_size=12).map(
        lambda cards: from_cards([c for i, c in enumerate(cards) if cards[:i].count(c) < 2])
    )


@settings(max_examples=300)
@given(
    st.integers(0, 3),
    st.integers(-2, 5),
    st.sampled_from([PLAY, PASS, "tribute", "return", "take", "dance"]),
    any_cards(),
    st.lists(st.integers(-3, 60), max_size=3),
    st.integers(-2, 5),
    st.integers(0, 200),
)
def test_any_move_is_applied_or_refused_cleanly(  # type: ignore[no-untyped-def]
    seed, seat, action, cards, wild_as, source, at
) -> None:
    states = list(itertools.islice(random_states(seed), at + 1))
    state = states[-1]
    move = Move(seat, action, cards, tuple(wild_as), source)
    try:
        after, _ = apply(state, move)
    except IllegalMove as refused:
        # A stable code of record-format.md, said in English and Japanese.
        assert refused.code in MOVE_CODES and refused.message_en and refused.message_ja
    else:
        assert cards_in_play(after) == DOUBLE_DECK


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {"seat": st.integers(-1, 4)},
        optional={
            "play": json_values | st.just(["2H", "5S"]),
            "pass": json_values,
            "as": json_values | st.just(["5D"]),
            "tribute": json_values,
            "return": json_values,
            "take": json_values,
        },
    )
)
def test_any_move_object_is_read_or_refused_cleanly(value) -> None:  # type: ignore[no-untyped-def]
    state = next(random_states(1, chained=False))
    with contextlib.suppress(EngineError):
        apply(state, move_from_json(value, "moves[0]"))


# --- the brute force -------------------------------------------------------------------


def selections(hand: Cards):  # type: ignore[no-untyped-def]
    """Every non-empty sub-multiset of ``hand``."""
    kinds = sorted(set(hand))
    for copies in itertools.product(*[range(hand.count(c) + 1) for c in kinds]):
        cards = [c for c, n in zip(kinds, copies, strict=True) for _ in range(n)]
        if cards:
            yield from_cards(cards)


def brute_force(hand: Cards, level: int, table: Combo | None) -> set[tuple[Cards, Combo]]:
    return {
        (cards, combo)
        for cards in selections(hand)
        for combo in readings(cards, level)
        if table is None or combo.beats(table)
    }


def listed(state: State) -> set[tuple[Cards, Combo]]:
    out = set()
    for move in GUANDAN.legal_moves(state):
        if move.action == PLAY:
            after, _events = apply(state, move)  # every listed move is legal as it stands
            combo = after.table
            assert combo is not None
            out.add((move.cards, combo))
    return out


def small_hand(level: int) -> st.SearchStrategy[Cards]:
    """Up to 9 cards from a few neighbouring ranks, the wilds and the jokers."""
    wild = wild_card(level)

    def build(draw_ranks: tuple[int, list[tuple[int, int]], int, int]) -> Cards:
        low, picks, wilds, jokers = draw_ranks
        cards = [((low + r) % 13) * 4 + s for r, s in picks] + [wild] * wilds
        cards += [52 + j % 2 for j in range(jokers)]
        kept: list[int] = []
        for card in cards:
            if kept.count(card) < 2:
                kept.append(card)
        return from_cards(kept) if kept else from_cards([wild])

    return st.tuples(
        st.integers(0, 12),
        st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), max_size=7),
        st.integers(0, 2),
        st.integers(0, 2),
    ).map(build)


@settings(max_examples=150)
@given(st.integers(2, 14), st.data())
def test_legal_moves_are_every_selection_and_reading_that_may_be_played(level, data) -> None:  # type: ignore[no-untyped-def]
    hand = data.draw(small_hand(level))
    other = data.draw(small_hand(level))
    if not all(hand.count(c) + other.count(c) <= 2 for c in set(hand) | set(other)):
        return
    spare = [c for c in range(52) if c not in set(hand) | set(other)]
    hands = [hand, other, from_cards(spare[:1]), from_cards(spare[1:2])]
    state = new_game(GUANDAN_CN, hands, match=Match((level, 2), declaring=0), leader=0)
    assert listed(state) == brute_force(hand, level, None)
    lead = data.draw(st.sampled_from(sorted(GUANDAN.legal_moves(state), key=repr)))
    state, _ = apply(state, lead)
    if GUANDAN.is_over(state) or state.turn != 1:
        return
    assert listed(state) == brute_force(other, level, state.table)
    assert any(m.action == PASS for m in GUANDAN.legal_moves(state))
    assert EMPTY not in {m.cards for m in GUANDAN.legal_moves(state) if m.action == PLAY}


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "hands": json_values | st.just([["3S"], ["4S"], ["5S"], ["6S"]]),
            "match": json_values
            | st.fixed_dictionaries(
                {},
                optional={
                    "levels": json_values | st.just(["A", "10"]),
                    "failures": json_values | st.just([1, 2]),
                    "previous": json_values | st.just([3, 1, 2, 0]),
                    "declarer": json_values,
                },
            ),
            "leader": json_values,
            "seats": json_values,
            "moves": json_values,
        },
    )
)
def test_any_record_is_read_or_refused_cleanly(keys) -> None:  # type: ignore[no-untyped-def]
    record = {"format": "kakumei-record/1", "rules": "guandan-pagat", **keys}
    with contextlib.suppress(EngineError):
        replay(record)
