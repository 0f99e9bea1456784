"""大財閥 rule steps: one named function per card effect (``STEPS``), the revolution, and the
settling of a play (finishers, cuts, 5-skips, flows); ``effect_steps`` queues them in the
order of the F12 reading and ``run_steps`` runs the queue until a decision is owed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from .daizaibatsu_combos import (
    ACE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    KING,
    NINE,
    QUEEN,
    SET,
    SEVEN,
    SIX,
    STAIRS,
    TEN,
    TWO,
    Combo,
    add,
    from_list,
    strength,
)
from .daizaibatsu_state import (
    CUT_EIGHT,
    CUT_NONE,
    DESTROY,
    DISCARD,
    DRAW,
    GIVE,
    PHASE_OVER,
    PHASE_PLAY,
    TAKE,
    TARGET,
    ZONE_DESTROYED,
    ZONE_DISCARDED,
    ZONE_FLOWED,
    ZONE_NONE,
    ZONE_TABLE,
    DaizaibatsuEvent,
    Owed,
    State,
    Step,
    event,
    give_cards,
    next_in,
    queen_receivers,
    renewal_order,
    take_options,
    targets,
    with_item,
)
from .multideck import EMPTY, Cards

# --- the effect steps ----------------------------------------------------------------------

StepFn = Callable[[State, Step, list[DaizaibatsuEvent]], State]


def push(state: State, *steps: Step) -> State:
    return state._replace(queue=(*steps, *state.queue))


def owe(state: State, *owed: Owed) -> State:
    return state._replace(owed=(*state.owed, *owed))


def draw(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rules 4, 2, 9, 19, 21: ``seat`` draws ``n`` from the top of the pile; an empty pile is
    renewed from the flowed, discarded and destroyed cards ``pile_renewals`` times (F2), and the
    next exhaustion ends the game (rule 24)."""
    seat, wanted = step.seat, step.n
    if wanted <= 0 or state.phase == PHASE_OVER:
        return state
    got = EMPTY
    got_count = 0
    while got_count < wanted:
        if state.pile_count == 0:
            if state.renewals >= state.rules.pile_renewals:
                state = _drawn(state, seat, got, got_count, events)
                return forced_end(state, seat, events)
            state = _renew(state, events)
            continue
        n = min(wanted - got_count, state.pile_count)
        if state.pile is not None:
            got = add(got, from_list(state.pile[:n]))
            state = state._replace(pile=state.pile[n:], pile_count=state.pile_count - n)
        else:
            state = state._replace(pile_count=state.pile_count - n)
        got_count += n
    return _drawn(state, seat, got, got_count, events)


def _drawn(
    state: State, seat: int, got: Cards, count: int, events: list[DaizaibatsuEvent]
) -> State:
    if count == 0:
        return state
    if seat in state.out:
        state = state._replace(out=tuple(s for s in state.out if s != seat))
        events.append(event("returned_to_play", seat=seat))
    events.append(event("drew", seat=seat, count=count))
    if state.pile is None and state.hands[seat] is not None:
        # Open table: the cards are unknown to the engine, the referee names them.
        state = state._replace(counts=with_item(state.counts, seat, state.counts[seat] + count))
        if state.phase == PHASE_PLAY:
            return owe(state, Owed(seat, DRAW, count))
        return state
    if state.pile is None:
        return state._replace(counts=with_item(state.counts, seat, state.counts[seat] + count))
    return give_cards(state, seat, got)


def _renew(state: State, events: list[DaizaibatsuEvent]) -> State:
    waste = add(add(state.flowed, state.discarded), state.destroyed)
    number = state.renewals + 1
    pile = None if state.pile is None else renewal_order(state.setup.seed, number, waste)
    recent_gone = state.recent_zone in (ZONE_FLOWED, ZONE_DISCARDED, ZONE_DESTROYED)
    events.append(event("pile_renewed", count=len(waste), renewal=number))
    return state._replace(
        pile=pile,
        pile_count=len(waste),
        flowed=EMPTY,
        discarded=EMPTY,
        destroyed=EMPTY,
        renewals=number,
        recent=EMPTY if recent_gone else state.recent,
        recent_zone=ZONE_NONE if recent_gone else state.recent_zone,
    )


def forced_end(state: State, seat: int, events: list[DaizaibatsuEvent]) -> State:
    events.append(event("forced_end", seat=seat))
    events.append(event("game_over"))
    return state._replace(
        phase=PHASE_OVER,
        forced_end=True,
        forced_by=seat,
        queue=(),
        owed=(),
        given=(),
        eight_from=-1,
        kill_from=-1,
    )


def skip(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 5: the next 2n − 1 players are skipped (settled with the turn)."""
    return state._replace(skip=state.skip + 2 * step.n - 1)


def open_hand(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 6: the hand is face up for good; ``arg`` 1 (a four-6 revolution): every hand."""
    seats = tuple(range(state.seats)) if step.arg else (step.seat,)
    mask = state.opened
    for s in seats:
        mask |= 1 << s
    events.append(event("hand_opened", seats=seats))
    return state._replace(opened=mask)


def give_seven(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 7: give n chosen cards to the next player; nothing when the 7s were the last cards."""
    held = state.counts[step.seat]
    to = next_in(state, step.seat)
    if held == 0 or to < 0:
        return state
    return owe(state, Owed(step.seat, GIVE, min(step.n, held), to))


def eight_cut(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 8: the trick ends; the player leads (settled with the turn)."""
    events.append(event("eight_cut", seat=step.seat))
    return state._replace(cut=CUT_EIGHT)


def reverse(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 9: the direction reverses, once per play (F6) or once per 9."""
    times = step.n if state.rules.reverse_per_card else 1
    direction = state.direction if times % 2 == 0 else -state.direction
    events.append(event("reversed", seat=step.seat, direction=direction))
    return state._replace(direction=direction)


def nine_target(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 9: three 9s: the player names someone who draws 3."""
    return _target(state, step.seat, 3)


def two_target(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 15: the player names someone who draws 2n."""
    return _target(state, step.seat, 2 * step.n)


def _target(state: State, seat: int, amount: int) -> State:
    if not targets(state, seat):
        return state
    return owe(state, Owed(seat, TARGET, 0, -1, amount, seat))


def discard(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 10: discard n chosen cards; no effect when the 10s finish (``arg`` 1)."""
    held = state.counts[step.seat]
    if step.arg or held == 0:
        return state
    return owe(state, Owed(step.seat, DISCARD, min(step.n, held)))


def eleven_back(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 11: J reverses the order until the trick flows (XOR with the revolution)."""
    back = not state.back
    events.append(event("eleven_back", on=int(back)))
    return state._replace(back=back)


def queen(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 12: every player still in gives n chosen cards to the next, all at once; the player
    going out with the Qs is left out both ways (:func:`queen_receivers`)."""
    owed = [
        Owed(s, GIVE, min(step.n, state.counts[s]), to, group=1)
        for s, to in enumerate(queen_receivers(state))
        if to >= 0
    ]
    if not owed:
        return state
    return owe(state, *owed)._replace(given=tuple(EMPTY for _ in range(state.seats)))


def king(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 13: destroy n cards of the next player: the K player names them (chosen from an
    open hand, picked blind otherwise)."""
    victim = next_in(state, step.seat)
    if victim < 0 or state.counts[victim] == 0:
        return state
    return owe(state, Owed(step.seat, DESTROY, min(step.n, state.counts[victim]), victim))


def ace(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 14: take back n of the cards played, cut, discarded or destroyed just before."""
    count = min(step.n, len(take_options(state)))
    if count == 0:
        return state
    return owe(state, Owed(step.seat, TAKE, count))


def revolution_now(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 19: the order reverses; every other player still in draws 2 (stairs revolutions,
    three 9s under F7); ``arg`` 1: a stairs counter-revolution (rule 22)."""
    if step.arg:
        events.append(event("counter_revolution", seat=step.seat))
    on = not state.revolution
    events.append(event("revolution", on=int(on)))
    state = state._replace(revolution=on)
    draws = [Step("draw", s, 2) for s in _others_from(state, step.seat)]
    return push(state, *draws)


def _others_from(state: State, seat: int) -> list[int]:
    """The other players still in, from the next seat in turn order."""
    n = state.seats
    return [
        (seat + i * state.direction) % n
        for i in range(1, n)
        if (seat + i * state.direction) % n not in state.out
    ]


def revolution_pending(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """Rule 20: a 4+ set's revolution waits until everyone else passes; ``arg`` 1: it answers
    a pending one (rule 21, a counter-revolution)."""
    if step.arg:
        events.append(event("counter_revolution", seat=step.seat))
        return state._replace(rev_chain=state.rev_chain + 1, rev_last=step.seat)
    events.append(event("revolution_pending", seat=step.seat))
    return state._replace(rev_chain=1, rev_last=step.seat)


def settle(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The end of a play: who has gone out, then whose turn it is (cuts, 5-skips, flows)."""
    seat = step.seat
    state = _finishers(state, seat, events)
    if state.phase == PHASE_OVER:
        return state
    cut, skipped = state.cut, state.skip
    state = state._replace(cut=CUT_NONE, skip=0)
    if cut != CUT_NONE:
        leader = seat if seat not in state.out else next_in(state, seat)
        state = push(state, Step("flow", leader, 0, 1))
        if cut == CUT_EIGHT and state.rules.eight_cut_window:
            state = state._replace(eight_from=seat)
        return state
    if skipped:
        state = _skip_players(state, seat, skipped, events)
        if state.queue:
            return state
    following = next_in(state, seat, skip_passed=True)
    if following < 0:
        leader = seat if seat not in state.out else next_in(state, seat)
        return push(state, Step("flow", leader))
    return state._replace(turn=following)


def _skip_players(state: State, seat: int, count: int, events: list[DaizaibatsuEvent]) -> State:
    n = state.seats
    skipped: list[int] = []
    counted = 0
    everyone = True
    for i in range(1, n):
        s = (seat + i * state.direction) % n
        if s in state.out:
            if state.rules.skip_counts_finished:
                counted += 1
            if counted >= count:
                everyone = False
                break
            continue
        skipped.append(s)
        counted += 1
        if counted >= count:
            everyone = i == n - 1 or all(
                (seat + j * state.direction) % n in state.out for j in range(i + 1, n)
            )
            break
    passed = state.passed
    for s in skipped:
        passed |= 1 << s
    events.append(event("skipped", seat=seat, seats=tuple(skipped)))
    state = state._replace(passed=passed)
    if everyone or next_in(state, seat, skip_passed=True) < 0:
        leader = seat if seat not in state.out else next_in(state, seat)
        return push(state, Step("flow", leader))
    return state


def flow(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The trick flows: a pending revolution applies first (rules 20–21), then the table is
    cleared and ``seat`` leads."""
    state = push(state, Step("clear", step.seat, 0, step.arg))
    if state.rev_chain:
        state = _apply_chain(state, events)  # its draws come before the clearing
    return state


def _apply_chain(state: State, events: list[DaizaibatsuEvent]) -> State:
    chain, last = state.rev_chain, state.rev_last
    counters = chain - 1
    toggles = chain if state.rules.counter_toggles else 1
    on = state.revolution != (toggles % 2 == 1)
    events.append(event("revolution", on=int(on)))
    state = state._replace(revolution=on, rev_chain=0, rev_last=-1)
    if counters == 0:
        draws = [Step("draw", s, 2) for s in _others_from(state, last)]
    else:
        n = state.seats
        returners = state.rules.counter_draw_returns_finished
        draws = [
            Step("draw", (last + i * state.direction) % n, 2 * counters)
            for i in range(1, n)
            if returners or (last + i * state.direction) % n not in state.out
        ]
    return push(state, *draws)


def clear(state: State, step: Step, events: list[DaizaibatsuEvent]) -> State:
    """The table flows and ``seat`` leads. What an A may take back is the current trick's:
    after a flow nothing (else a player holding only As would lead one and take it back
    forever); after a cut or a 上がり殺し (``arg`` 1) the cut cards or the kill card."""
    leader = step.seat
    if leader < 0 or leader in state.out:
        leader = next_in(state, leader if leader >= 0 else 0)
    if leader < 0:
        leader = 0
    events.append(event("trick_cleared", seat=leader))
    return state._replace(
        flowed=add(state.flowed, state.table_cards),
        table=None,
        table_cards=EMPTY,
        last=-1,
        passed=0,
        back=False,
        lock=-1,
        turn=leader,
        recent=state.recent if step.arg else EMPTY,
        recent_zone=(ZONE_FLOWED if state.recent_zone == ZONE_TABLE else state.recent_zone)
        if step.arg
        else ZONE_NONE,
    )


STEPS: Final[Mapping[str, StepFn]] = {
    "draw": draw,
    "skip": skip,
    "open": open_hand,
    "give7": give_seven,
    "eight": eight_cut,
    "reverse": reverse,
    "nine_target": nine_target,
    "discard": discard,
    "eleven_back": eleven_back,
    "queen": queen,
    "king": king,
    "ace": ace,
    "two": two_target,
    "revolution_now": revolution_now,
    "revolution_pending": revolution_pending,
    "settle": settle,
    "flow": flow,
    "clear": clear,
}


def _finishers(state: State, seat: int, events: list[DaizaibatsuEvent]) -> State:
    n = state.seats
    for i in range(n):
        s = (seat + i) % n
        if s in state.out or state.counts[s]:
            continue
        state = state._replace(out=(*state.out, s))
        events.append(event("finished", seat=s, place=len(state.out)))
        if state.rules.kill_card is not None:
            state = state._replace(kill_from=s, kill_cards=state.table_cards)
    if sum(1 for s in range(n) if s not in state.out) <= 1:
        events.append(event("game_over"))
        return state._replace(phase=PHASE_OVER, queue=(), owed=(), eight_from=-1, kill_from=-1)
    return state


def run_steps(state: State, events: list[DaizaibatsuEvent]) -> State:
    """Run the queued steps until a decision is owed, the game ends or the queue is empty."""
    queue = list(state.queue)
    state = state._replace(queue=())
    while queue and not state.owed and state.phase == PHASE_PLAY:
        step = queue.pop(0)
        state = STEPS[step.name](state, step, events)
        if state.queue:  # the step queued steps of its own: they run first
            queue[:0] = state.queue
            state = state._replace(queue=())
    if queue and state.phase == PHASE_PLAY:
        state = state._replace(queue=tuple(queue))
    return state


# --- the effects a play queues -------------------------------------------------------------

_RANK_STEPS: Final[Mapping[int, str]] = {
    FOUR: "draw",
    FIVE: "skip",
    SIX: "open",
    SEVEN: "give7",
    EIGHT: "eight",
    NINE: "reverse",
    TEN: "discard",
    JACK: "eleven_back",
    QUEEN: "queen",
    KING: "king",
    ACE: "ace",
    TWO: "two",
}


def effect_steps(
    state: State, seat: int, combo: Combo, finishing: bool, counter: bool
) -> list[Step]:
    """The steps a play queues: each rank's effect (F12 order inside stairs), then the
    revolution, then the settling of the play."""
    ranks = combo.rank_counts()
    if combo.kind == STAIRS and state.rules.stairs_effects_in_order:
        order = state.reversed_order
        ranks.sort(key=lambda rc: strength(rc[0], order))
    steps: list[Step] = []
    for rank, n in ranks:
        name = _RANK_STEPS.get(rank)
        if name is None:
            continue
        if rank == FOUR:
            steps.append(Step("draw", seat, 4 * n))
        elif rank == SIX:
            steps.append(Step("open", seat, n, int(combo.kind == SET and n >= 4)))
        elif rank == TEN:
            steps.append(Step("discard", seat, n, int(finishing)))
        else:
            steps.append(Step(name, seat, n))
        if rank == NINE and combo.three_nines:
            steps.append(Step("nine_target", seat, n))
    if combo.kind == STAIRS and combo.revolution:
        steps.append(Step("revolution_now", seat, 0, int(counter)))
    elif combo.kind == SET and combo.revolution:
        steps.append(Step("revolution_pending", seat, 0, int(counter and state.rev_chain > 0)))
    elif combo.three_nines:
        if state.rules.three_nines_at_once:
            steps.append(Step("revolution_now", seat))
        else:
            steps.append(Step("revolution_pending", seat, 0, int(state.rev_chain > 0)))
    steps.append(Step("settle", seat))
    return steps
