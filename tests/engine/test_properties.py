"""Property tests: random games, card conservation, the brute-force oracle, replay, fuzzing."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    JDF,
    SET,
    TITLES,
    EngineError,
    Move,
    State,
    apply,
    apply_unchecked,
    deal,
    legal_moves,
    new_game,
    observe,
)
from games.engine.cards import parse_joker_targets
from games.engine.record import export_record, load_record, replay
from games.engine.rules import GEKIJO, GEKIJO_2, LOCAL, UECDA, UECDA_2

from .oracle import legal_keys, oracle_keys

VARIANTS = [
    JDF,
    JDF.with_overrides(spade3_ignores_lock=True),
    JDF.with_overrides(joker_pair_allowed=False, lone_spade3_finish_is_foul=False),
    JDF.with_overrides(suit_lock_after=2, eight_cut_in_stairs=True),
    JDF.with_overrides(revolution_set_size=5, miyako_ochi=False),
    JDF.with_overrides(suit_lock=False, eight_cut=False, spade_three_return=False),
]
# UECda with REFERENCE §4.1 rules 13a and 13b (uecda@2 without rule 13), and both readings
# with two jokers, a number lock and one card plus two jokers always a set.
UECDA_RULE_13 = UECDA.with_overrides(joker_beyond_ends=True, joker_suit_choice=True)
PRESET_VARIANTS = [
    GEKIJO,
    GEKIJO_2,
    LOCAL,
    UECDA,
    UECDA_RULE_13,
    UECDA_2,
    JDF.with_overrides(
        joker_beyond_ends=True, joker_suit_choice=True, lock_counts_joker_suits=True
    ),
    LOCAL.with_overrides(
        joker_beyond_ends=True, joker_suit_choice=True, lock_counts_joker_suits=True
    ),
    GEKIJO.with_overrides(eleven_back="toggle", spade_three_return=True, suit_lock=True),
    GEKIJO.with_overrides(joker_single_only=False, jokers=2, stairs_overlap=True),
    LOCAL.with_overrides(number_lock_after=1, one_card_two_jokers="declare"),
    UECDA.with_overrides(eleven_back="toggle", seats=4, foul_order="latest_lowest"),
    JDF.with_overrides(pass_on_lead=True, lock_counts_joker_suits=True, foul_finishes="joker"),
    # REFERENCE §4.1 rule 13: the last player may follow their own play (uecda@2), also with
    # the out-of-turn joker answer, 11-back calls and number locks around it.
    UECDA.with_overrides(last_player_may_follow=True),
    GEKIJO.with_overrides(last_player_may_follow=True, suit_lock=True),
    LOCAL.with_overrides(last_player_may_follow=True, pass_on_lead=True),
    # 千日手 (REFERENCE §4.1 rule 18): random play passes often, so small limits end games.
    UECDA.with_overrides(stalemate_passes=6, last_player_may_follow=True),
    JDF.with_overrides(stalemate_passes=3, pass_on_lead=True),
    # プンリー (REFERENCE §2.1 rule 13): random_game records misplays now and then.
    GEKIJO.with_overrides(misplay=True),
    JDF.with_overrides(misplay=True),
]
ALL_VARIANTS = VARIANTS + PRESET_VARIANTS
PRESETS_ALL = [JDF, GEKIJO, GEKIJO_2, LOCAL, UECDA, UECDA_RULE_13, UECDA_2]


def check_conservation(state: State) -> None:
    setup = state.setup
    seen = state.played | state.discarded | (setup.blind or 0)
    assert state.played & state.discarded == 0
    for seat, hand in enumerate(state.hands):
        assert hand & seen == 0
        seen |= hand
        if setup.known >> seat & 1:
            assert hand.bit_count() == state.counts[seat]
    dealt = setup.blind or 0
    for hand in setup.hands:
        dealt |= hand or 0
    assert seen == dealt
    for seat, exposed in enumerate(state.exposed):
        # Misplayed cards stay in their owner's hand until played (or discarded by 都落ち).
        assert exposed & ~state.hands[seat] == 0 or not setup.known >> seat & 1


def check_final(state: State) -> None:
    placings = state.placings()
    n = state.seats
    assert sorted(p.seat for p in placings) == list(range(n))
    assert [p.place for p in placings] == list(range(1, n + 1))
    assert sorted(p.title for p in placings) == sorted(TITLES[n])
    fouls = [p.seat for p in placings if p.foul]
    if state.rules.foul_order == "first_lowest":
        assert fouls == list(reversed(state.fouls))
    else:
        assert fouls == list(state.fouls)
    if state.stalemate:
        # 千日手: the seats still in the game hold their cards, placed by the draw.
        assert sorted(state.stalemate) == [s for s in range(n) if not state.out >> s & 1]
        assert {p.seat for p in placings if p.stalemate} == set(state.stalemate)
        assert state.pass_run == state.rules.stalemate_passes
    else:
        assert sum(1 for c in state.counts if c) <= 1
        assert not any(p.stalemate for p in placings)


def random_game(seed: int, rules=JDF, titles=None) -> tuple[State, list[Move], list[list[str]]]:
    rng = random.Random(seed)
    d = deal(seed, rules)
    start = new_game(rules, list(d.hands), blind=d.blind, titles=titles)
    state = start
    moves: list[Move] = []
    kinds: list[list[str]] = []
    for _ in range(3000):
        if state.is_over:
            break
        check_conservation(state)
        options = list(legal_moves(state))
        assert options, "a live game always has a legal move"
        move = rng.choice(options)
        if state.rules.misplay and state.phase == 1 and rng.random() < 0.08:
            move = random_misplay(rng, state) or move
        state, events = apply(state, move)
        moves.append(move)
        kinds.append([e.kind for e in events])
    assert state.is_over
    check_conservation(state)
    check_final(state)
    return start, moves, kinds


def random_misplay(rng: random.Random, state: State) -> Move | None:
    """A misplay (プンリー) of one or two cards some seat still in the game holds, not yet
    exposed; None when there is none."""
    seat = rng.randrange(state.seats)
    exposed = state.exposed[seat] if state.exposed else 0
    free = [1 << c for c in range(54) if (state.hands[seat] & ~exposed) >> c & 1]
    if state.out >> seat & 1 or not free:
        return None
    cards = sum(rng.sample(free, min(len(free), rng.randint(1, 2))))
    return Move(seat, cards, misplay=True)


@settings(max_examples=80)
@given(st.integers(0, 2**32), st.sampled_from(ALL_VARIANTS))
def test_random_games_terminate_with_a_full_placing(seed, rules):
    random_game(seed, rules)


@pytest.mark.parametrize("rules", PRESETS_ALL, ids=lambda r: r.id)
@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), order=st.randoms(use_true_random=False))
def test_random_later_games_with_exchange_every_preset(rules, seed, order):
    titles = list(TITLES[rules.seats])
    order.shuffle(titles)
    _start, moves, kinds = random_game(seed, rules, titles)
    gives = sum(1 for t in titles if t in ("daifugo", "fugo", "hinmin", "daihinmin"))
    assert kinds[gives - 1][-1] == "exchange_done"
    assert all(m.exchange for m in moves[:gives])


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.permutations(TITLES[4]))
def test_random_later_games_with_exchange(seed, titles):
    _start, moves, kinds = random_game(seed, JDF, list(titles))
    assert kinds[3][-1] == "exchange_done"
    assert all(m.exchange for m in moves[:4])


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.booleans(), st.sampled_from([JDF, *PRESET_VARIANTS]))
def test_replay_of_an_exported_record_reproduces_the_game(seed, later, rules):
    titles = list(TITLES[rules.seats]) if later else None
    start, moves, kinds = random_game(seed, rules, titles)
    record = json.loads(json.dumps(export_record(start, moves)))
    result = replay(load_record(record))
    verdicts = result.exchange + result.moves
    assert all(v.ok for v in verdicts)
    assert [[e.kind for e in v.events] for v in verdicts] == kinds
    assert result.finished
    state = start
    for m in moves:
        state, _ = apply(state, m)
    assert result.state == state
    assert result.to_dict()["placings"] == [p.to_dict() for p in state.placings()]


def build_small_state(rng: random.Random, rules, events: list | None = None) -> State | None:
    """A reachable state with small hands from a dense deck (a window of consecutive
    ranks, few suits, jokers) so that sets, stairs, revolutions and locks are common;
    None when the draw is rejected. ``events`` collects the events of the random moves."""
    # Now and then (triple_run rules) seat 0 holds a サンレンコー and prefers big plays,
    # since three consecutive triples almost never come from a random deal.
    rig = rules.triple_run and rng.random() < 0.3
    low = rng.randint(0, 9)
    ranks = range(low, min(13, low + rng.randint(3, 6)))
    suits = rng.sample(range(4), rng.choice([3, 4] if rig else [1, 2, 2, 3, 4]))
    run = [r * 4 + s for r in ranks[:3] for s in suits[:3]] if rig else []
    jokers = [52, 53][: min(rules.jokers, rng.choice([0, 1, 2, 2, 2]))]
    pool = [r * 4 + s for r in ranks for s in suits if r * 4 + s not in run] + jokers
    if (rules.heart_three_return or rules.instant_win) and 1 not in pool + run:
        pool.append(1)  # 3H: the out-of-turn answer
    rng.shuffle(pool)
    hands = []
    # サンレンコー needs 9 cards: gekijo-like rules sometimes deal bigger hands.
    biggest = 10 if rules.triple_run and rng.random() < 0.3 else 7
    for _ in range(rules.seats):
        size = min(rng.randint(2, biggest), len(pool))
        if size == 0:
            return None
        hands.append(sum(1 << c for c in pool[:size]))
        pool = pool[size:]
    if run:
        hands[0] |= sum(1 << c for c in run)
    if pool and rules.instant_win and rng.random() < 0.1:
        # Now and then a hand with one card of each rank: the イッツー window.
        straight = sum(1 << (r * 4 + rng.randrange(4)) for r in range(13))
        hands = [h & ~straight for h in hands]
        hands[0] = straight
        if any(not h for h in hands):
            return None
    state = new_game(rules, hands, leader=0 if rig else rng.randrange(rules.seats))
    for _ in range(rng.randint(0, 12)):
        if state.is_over:
            break
        if rules.misplay and state.phase == 1 and rng.random() < 0.2:
            # プンリー: exposed cards stay playable, so the oracle sees states with some.
            misplay = random_misplay(rng, state)
            if misplay is not None:
                state, _ = apply(state, misplay)
                continue
        options = list(legal_moves(state))
        if rig and rng.random() < 0.5:
            move = max(options, key=lambda m: m.cards.bit_count())
        else:
            move = rng.choice(options)
        state = apply_unchecked(state, move, events)
    return state


@st.composite
def small_states(draw) -> State:
    """:func:`build_small_state` as a strategy. One seed drives the choices: uniform
    coverage matters more here than shrinking."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    rules = draw(st.sampled_from(ALL_VARIANTS))
    state = build_small_state(rng, rules)
    if state is None:
        return draw(st.nothing())
    return state


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("4D 5D 6D JK JK", None),
        ("4D 5D 6D 7D JK", None),
        ("KH AH 2H JK JK", None),
        ("3S 3H 3D 3C JK JK", None),
        ("4D 5D 6D 7D JK JK", "3C 4C 5C"),
        ("5S 5H 6S 6H JK JK", "4C 4D"),
        ("5S 6S 7S 8S JK", "4C 5C 6C 7C"),
        ("3S 5S 7S JK JK", "3C"),
    ],
)
def test_oracle_on_dense_hands(hand, table):
    for rules in [r for r in ALL_VARIANTS if r.jokers == 2 and r.seats == 4]:
        if table is None:
            state = new_game(rules, [hand, "9C", "9H", "TC"], leader=0)
        else:
            state = new_game(rules, [table + " QC", hand, "9H", "TH"], leader=0)
            state, _ = apply(state, Move.play(0, table))
        assert legal_keys(list(legal_moves(state))) == oracle_keys(state)


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("3S 4S 5S AS 2S JK", None),
        ("3H 4H 5H 6H 7H JK", None),
        ("AH 2H JK 3H 4H", "JD QD KD"),
        ("3S 4S JK 7S", "5D 6D 7D"),
        ("2H 2D JK 3S 4S", "AS AH"),
        ("9S 9H 9D JK", "7S 7H 7C"),
    ],
)
@pytest.mark.parametrize("revolution", [False, True])
def test_oracle_on_dense_hands_with_one_joker(hand, table, revolution):
    """UECda with and without rules 13a and 13b (and uecda@2), in both orders."""
    for rules in (UECDA, UECDA_RULE_13, UECDA_2):
        opener = "TS TH TD TC " if revolution else ""
        hands = [opener + (table or "QC"), hand, "9C", "KC", "KH"]
        state = new_game(rules, hands, leader=0)
        if revolution:
            state, _ = apply(state, Move.play(0, "TS TH TD TC"))
            for seat in (1, 2, 3, 4):
                state, _ = apply(state, Move.pass_turn(seat))
            if rules.last_player_may_follow:  # rule 13: the turn came back to seat 0
                state, _ = apply(state, Move.pass_turn(0))
        # Seat 0 plays the table, or passes on the empty table (pass_on_lead).
        state, _ = apply(state, Move.play(0, table) if table else Move.pass_turn(0))
        assert state.turn == 1
        assert legal_keys(list(legal_moves(state))) == oracle_keys(state)


@settings(max_examples=600)
@given(small_states())
def test_legal_moves_agree_with_the_brute_force_oracle(state):
    if state.is_over:
        assert list(legal_moves(state)) == []
        return
    moves = list(legal_moves(state))
    assert len(moves) == len(set(moves)), "no duplicates"
    assert legal_keys(moves) == oracle_keys(state)
    events: list = []
    for move in moves:
        checked, checked_events = apply(state, move)
        events.clear()
        assert apply_unchecked(state, move, events) == checked
        assert tuple(events) == checked_events


def _normal(state: State) -> State:
    table = state.table
    if table is not None and table.kind == SET and table.as_cards:
        table = table._replace(as_cards=0)
        return State(**{**{f: getattr(state, f) for f in State._fields}, "table": table})
    return state


@settings(max_examples=300)
@given(
    small_states(),
    st.integers(0, 4),
    st.integers(0, 2**54 - 1),
    st.booleans(),
    st.integers(0, 2**62 - 1),
    st.sampled_from([None, "set", "stairs", "x", "instant_win"]),
    st.sampled_from([None, None, "up", "down", "sideways"]),
    st.booleans(),
)
def test_random_moves_are_accepted_only_if_legal(
    state, seat, cards, is_pass, as_bits, declare, choice, respond
):
    # Sparse random card sets: keep a few bits so that some moves are legal.
    seat %= state.seats
    rng = random.Random(cards)
    hand = state.hands[seat] if rng.random() < 0.8 else cards
    keep = 1.0 if declare == "instant_win" else 0.4
    cards = sum(1 << c for c in range(54) if hand >> c & 1 and rng.random() < keep)
    targets = parse_joker_targets("4S 5S 6S 7S 8S 9S TS 4D 5D 6D -S +S -D +D")
    as_cards = as_bits & targets if rng.random() < 0.3 else 0
    move = Move(
        seat,
        0 if is_pass else cards,
        is_pass,
        0 if is_pass else as_cards,
        declare,
        choice,
        False,
        respond and rng.random() < 0.5,
    )
    try:
        new, _ = apply(state, move)
    except EngineError:
        return
    results = {_normal(apply_unchecked(state, m)) for m in legal_moves(state)}
    assert _normal(new) in results


@settings(max_examples=200)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
        ),
        max_leaves=30,
    )
)
def test_garbage_records_only_raise_engine_errors(data):
    for candidate in (
        data,
        {"format": "kakumei-record/1", "hands": data},
        {"format": "kakumei-record/1", "hands": [["3S"], ["4S"], ["5S"], ["6S"]], "moves": data},
    ):
        with contextlib.suppress(EngineError):
            replay(json.loads(json.dumps(candidate)))


MOVE_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.integers(-1, 4),
        "play": st.lists(
            st.sampled_from(["3S", "4S", "5S", "JK", "6H", "9D", "XX", "10c"]), max_size=4
        ),
        "pass": st.booleans(),
        "as": st.dictionaries(
            st.sampled_from(["JK", "X"]), st.sampled_from(["5S", "7S", ["5S", "7S"], 3])
        ),
        "declare": st.sampled_from(["set", "stairs", "no", 1]),
        "choice": st.sampled_from(["up", {"target": 2}]),
        "misplay": st.lists(st.sampled_from(["3S", "5S", "JK", "6H", "XX"]), max_size=3),
    },
)


@settings(max_examples=200)
@given(st.lists(MOVE_FIELDS, max_size=8))
def test_random_record_moves_never_crash(moves):
    record = {
        "format": "kakumei-record/1",
        "rules": {"preset": "jdf", "overrides": {"misplay": True}},
        "hands": [["3S", "4S", "JK"], ["5S", "6H"], ["9D", "7S"], ["6S", "JK"]],
        "moves": moves,
    }
    try:
        result = replay(record)
    except EngineError:
        return
    observe(result.state, None)


@settings(max_examples=30)
@given(st.integers(0, 2**32))
def test_open_table_random_games(seed):
    """Replaying a known game as an open table accepts the same moves."""
    start, moves, _kinds = random_game(seed)
    counts = list(start.counts)
    state = new_game(
        JDF,
        [None, start.setup.hands[1], None, None],
        counts=counts,
        leader=start.setup.first_leader,
    )
    for move in moves:
        state, _events = apply(state, move)
    assert state.is_over
    view = observe(state, None)
    # seat 1 is known; the unknown hands' leftovers plus the (unstated) blinds are unaccounted
    unknown_left = sum(state.counts[s] for s in (0, 2, 3))
    assert len(view["unaccounted"]) == unknown_left + 2


def test_the_random_strategies_reach_sanrenko_and_heart_three_answers():
    """Coverage of the generators above: gekijo's サンレンコー and the out-of-turn ♥3
    answer actually occur, so the properties exercise them (fixed seeds)."""
    played: dict[str, int] = {"triple_run": 0, "double_stairs": 0, "answers": 0}
    for seed in range(400):
        rng = random.Random(seed)
        rules = rng.choice([r for r in ALL_VARIANTS if r.triple_run])
        events: list = []
        build_small_state(rng, rules, events)
        for e in events:
            combination = e.to_dict().get("combination")
            if e.kind == "played" and combination in played:
                played[str(combination)] += 1
    for seed in range(40):
        _start, moves, kinds = random_game(seed, GEKIJO)
        played["answers"] += sum(
            1 for m, k in zip(moves, kinds, strict=True) if m.respond and "heart_three_return" in k
        )
    assert played["triple_run"] >= 3, played
    small = [build_small_state(random.Random(seed), GEKIJO_2) for seed in range(100)]
    exposed = sum(1 for state in small if state is not None and any(state.exposed))
    assert exposed >= 10, exposed  # the oracle sees states with cards face up (プンリー)
    misplays = 0
    for seed in range(10):
        _start, moves, kinds = random_game(seed, GEKIJO.with_overrides(misplay=True))
        misplays += sum(1 for m in moves if m.misplay)
    assert misplays >= 5, misplays
    stalemates = sum(
        "stalemate" in random_game(seed, UECDA.with_overrides(stalemate_passes=6))[2][-1]
        for seed in range(20)
    )
    assert stalemates >= 3, stalemates
    assert played["answers"] >= 3, played
