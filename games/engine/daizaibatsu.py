"""The 大財閥 (Daizaibatsu) family: 大富豪 with an effect for every rank and a draw pile (山札).

Two packs and four jokers (108 cards); each seat is dealt ``hand_size`` cards and the rest is
the pile. A play is checked against the table, then its card effects run as a queue of named
rule steps (:data:`STEPS`, one function per effect rank), in the order of the README's
F12 reading; a step that needs a player's choice (a target, cards to give, discard, destroy or
take back, a joker double-back, the cards drawn in open-table mode) stops the queue with a
:class:`~games.engine.family.Decision` owed, and the queue runs on once the decision is made.
The last step of every play settles it: who has gone out, and whose turn it is.

The family is six modules: ``daizaibatsu_rules`` (switches, preset), ``daizaibatsu_combos``
(cards, combinations), ``daizaibatsu_state`` (moves, events, states, deal), ``daizaibatsu_judge``
(reading and judging a play), ``daizaibatsu_steps`` (the rule steps), ``daizaibatsu_moves``
(legal moves, decisions owed); this one applies moves, gives results, reads and writes records
and snapshots, and registers the family. Its names are the family's public API.

    >>> from games.engine.daizaibatsu_rules import DAIZAIBATSU
    >>> rules = DAIZAIBATSU.with_overrides(finish_kill_card="off", zaibatsu_revolution="off")
    >>> state = new_game(rules, ["4S 9H", "5D 6D", "7C 8C", "TH JH"], pile=["3S", "3H", "3D", "3C"])
    >>> state, events = apply(state, Move.play(0, "4S"))
    >>> [e.kind for e in events], names(state.hands[0])
    (['played', 'drew'], ['3S', '3H', '3D', '3C', '9H'])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Card
from .core import TITLES
from .daizaibatsu_combos import (
    FOUR,
    JOKERS,
    SET,
    SIX,
    Combo,
    add,
    card_name,
    classify,
    common,
    holds,
    jokers,
    jokers_alone,
    make,
    names,
    numbers,
    parse,
    sub,
    suit_letters,
    to_list,
)
from .daizaibatsu_judge import (
    Verdict,
    forbidden_finish,
    judge,
    read_play,
)
from .daizaibatsu_moves import (
    legal_moves,
    pending,
    plays_of,
    to_move,
)
from .daizaibatsu_rules import (
    DAIZAIBATSU,
    FAMILY,
    PRESETS,
    SWITCHES,
    DaizaibatsuRules,
    ruleset_from_record,
)

# The family's public names, wherever they live (``from games.engine.daizaibatsu import …``).
from .daizaibatsu_state import (
    ACCEPT,
    CARD_DECISIONS,
    CUT_NONE,
    CUT_SANDSTORM,
    CUT_SPADE_THREE,
    DESTROY,
    DISCARD,
    DOUBLE_BACK,
    DRAW,
    DREW,
    GIVE,
    PASS,
    PHASE_OVER,
    PHASE_PLAY,
    PILE_NOT_GIVEN,
    PLAY,
    RENEWAL_ALGORITHM,
    TAKE,
    TARGET,
    ZONE_DESTROYED,
    ZONE_DISCARDED,
    ZONE_NONE,
    ZONE_TABLE,
    DaizaibatsuDeal,
    DaizaibatsuEvent,
    Move,
    Owed,
    Setup,
    State,
    Step,
    deal,
    event,
    give_cards,
    illegal,
    new_game,
    next_in,
    not_held,
    queen_receivers,
    renewal_order,
    seat_holds,
    take_cards,
    take_source,
    targets,
    with_item,
)
from .daizaibatsu_steps import (
    STEPS,
    effect_steps,
    forced_end,
    owe,
    push,
    run_steps,
)
from .errors import IllegalMove, InvalidNotation, RecordError, RulesError
from .family import FEWER, Decision, Metric, SeatResult, form_error, read_move_object, register
from .multideck import EMPTY, Cards
from .snapshot import SnapshotError

# --- apply ---------------------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, tuple[DaizaibatsuEvent, ...]]:
    """The state after ``move`` and its events; raises ``IllegalMove`` (state unchanged)."""
    if state.phase == PHASE_OVER:
        raise illegal("game_over", "the game is over", "ゲームは終わっています", "24")
    if not 0 <= move.seat < state.seats:
        raise illegal("not_your_turn", "no such seat", "その席はありません", "seats")
    events: list[DaizaibatsuEvent] = []
    if move.action == PLAY:
        state = _apply_play(state, move, events)
    elif move.action == PASS:
        state = _apply_pass(state, move, events)
    else:
        state = _apply_decision(state, move, events)
    state = run_steps(state, events)
    return state, tuple(events)


def _apply_play(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    if move.respond:
        return _respond(state, move, events)
    if state.owed:
        raise _pending()
    if seat != state.turn or seat in state.out:
        raise _not_turn(seat)
    if not seat_holds(state, seat, move.cards):
        raise not_held(seat)
    table = state.table
    if (
        table is not None
        and table.kind == JOKERS
        and jokers(move.cards)
        and numbers(move.cards)
        and len(move.cards) != 3
    ):
        raise illegal(
            "invalid_combination",
            "no joker may stand in for ♠3",
            "♠3の代わりにジョーカーは使えません",
            "3",
        )
    combo, verdict, finishing = _judged(state, move)
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY)
    return _put(state, seat, move, combo, verdict, finishing, events)


def _judged(state: State, move: Move) -> tuple[Combo, Verdict, bool]:
    """The play read and judged against the table (in turn, or as an answer in the 8-cut
    window), and whether it finishes; raises ``IllegalMove`` (F4: a forbidden finish)."""
    combo = read_play(move.cards, move.as_)
    verdict = judge(state, combo, respond=move.respond)
    if not isinstance(verdict, Verdict):
        raise illegal(*verdict)
    finishing = len(move.cards) == state.counts[move.seat]
    if finishing and forbidden_finish(state, combo):
        raise illegal(
            "forbidden_finish",
            "you may not go out with that play",
            "そのカードでは上がれません",
            "F4",
        )
    return combo, verdict, finishing


def _put(
    state: State,
    seat: int,
    move: Move,
    combo: Combo,
    verdict: Verdict,
    finishing: bool,
    events: list[DaizaibatsuEvent],
) -> State:
    """Lay the play on the table and queue its effects."""
    table = state.table
    state = take_cards(state, seat, move.cards)
    named = tuple(sorted(to_list(combo.reading - numbers(move.cards)))) if combo.joker_count else ()
    events.append(event("played", seat=seat, cards=move.cards, as_=named, combination=combo.kind))
    cut = verdict.cut
    if cut == CUT_SANDSTORM:
        events.append(event("sandstorm", seat=seat))
    elif cut == CUT_SPADE_THREE:
        events.append(event("spade_three_cut", seat=seat))
    lock = state.lock
    if verdict.lock >= 0:
        lock = verdict.lock
    if verdict.down_number:
        events.append(event("down_number", seat=seat))
    if lock != state.lock:
        events.append(event("lock_started", seat=seat, suits=" ".join(suit_letters(lock))))
    state = state._replace(
        passed=0 if table is None else state.passed,
        table=combo,
        table_cards=add(state.table_cards, move.cards),
        last=seat,
        lock=lock,
        cut=cut if cut in (CUT_SANDSTORM, CUT_SPADE_THREE) else CUT_NONE,
        take_pool=state.recent,
        take_zone=state.recent_zone,
        recent=move.cards,
        recent_zone=ZONE_TABLE,
    )
    counter = verdict.counter or (
        table is not None and combo.revolution and combo.kind == SET and state.rev_chain > 0
    )
    steps = effect_steps(state, seat, combo, finishing, counter)
    return state._replace(queue=(*steps, *state.queue))


def _respond(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    """Out of turn: the 8-cut window (F3) or 上がり殺し (rule 23)."""
    seat = move.seat
    if state.owed:
        raise _pending()
    if seat in state.out:
        raise _not_turn(seat)
    if not seat_holds(state, seat, move.cards):
        raise not_held(seat)
    kill = state.rules.kill_card
    if (
        state.kill_from >= 0
        and kill is not None
        and seat != state.kill_from
        and len(move.cards) == 1
        and to_list(move.cards)[0] == kill
    ):
        return _finish_kill(state, seat, move, events)
    if state.eight_from < 0 or seat == state.eight_from:
        raise _not_turn(seat)
    combo, verdict, finishing = _judged(state, move)
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY, turn=seat)
    return _put(state, seat, move, combo, verdict, finishing, events)


def _finish_kill(state: State, seat: int, move: Move, events: list[DaizaibatsuEvent]) -> State:
    """Rule 23: the kill card cancels the finish; the finisher takes the table's cards."""
    if state.counts[seat] < 2:
        raise illegal(
            "choice_invalid",
            "上がり殺し needs at least two cards in hand",
            "上がり殺しには手札が2枚以上必要です",
            "23",
        )
    victim = state.kill_from
    state = take_cards(state, seat, move.cards)
    taken = state.kill_cards
    table_part = taken if holds(state.table_cards, taken) else EMPTY
    flowed_part = sub(taken, table_part) if holds(state.flowed, sub(taken, table_part)) else EMPTY
    state = state._replace(
        table_cards=sub(state.table_cards, table_part),
        flowed=sub(state.flowed, flowed_part),
    )
    back = add(table_part, flowed_part)
    state = give_cards(state, victim, back)
    events.append(event("finish_killed", seat=seat, to=victim, cards=back))
    state = state._replace(
        out=tuple(s for s in state.out if s != victim),
        discarded=add(state.discarded, move.cards),
        recent=move.cards,
        recent_zone=ZONE_DISCARDED,
        kill_from=-1,
        kill_cards=EMPTY,
        eight_from=-1,
        rev_chain=0,
        rev_last=-1,
    )
    return push(state, Step("clear", seat, 0, 1))


def _apply_pass(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    if state.owed:
        raise _pending()
    if seat != state.turn or seat in state.out:
        raise _not_turn(seat)
    if state.passed >> seat & 1:
        raise illegal("already_passed", "you have passed", "パス済みです", "F14")
    if state.table is None and any(True for _ in plays_of(state, seat)):
        raise illegal("must_lead", "lead a play", "親は出してください", "1")
    state = state._replace(eight_from=-1, kill_from=-1, kill_cards=EMPTY)
    events.append(event("passed", seat=seat))
    state = state._replace(passed=state.passed | 1 << seat)
    following = next_in(state, seat, skip_passed=True)
    if state.table is None:
        if following < 0:  # nobody can lead: the game ends as at a forced end
            return forced_end(state, seat, events)
        return state._replace(turn=following)
    if following < 0 or following == state.last:
        leader = state.last if state.last not in state.out else next_in(state, state.last)
        return push(state, Step("flow", leader))
    return state._replace(turn=following)


def _pending() -> IllegalMove:
    return illegal(
        "decision_pending",
        "a decision is owed first",
        "先に選択を済ませてください",
        "effects",
    )


def _not_turn(seat: int) -> IllegalMove:
    return illegal(
        "not_your_turn", f"not seat {seat}'s turn", f"{seat}番の手番ではありません", "turn"
    )


def _apply_decision(state: State, move: Move, events: list[DaizaibatsuEvent]) -> State:
    seat = move.seat
    kind = CARD_DECISIONS.get(move.action, move.action)
    if kind in (ACCEPT,):
        kind = DOUBLE_BACK
    found = [o for o in state.owed if o.seat == seat and o.kind == kind]
    if not found:
        if not state.owed:
            raise illegal("choice_invalid", "no decision is owed", "選択はありません", "effects")
        raise illegal(
            "not_your_turn",
            "no such decision of this seat",
            "その選択はあなたのものではありません",
            "effects",
        )
    owed = found[0]
    rest = tuple(o for o in state.owed if o is not owed)
    if kind == TARGET:
        return _decide_target(state, owed, move, rest, events)
    if kind == DOUBLE_BACK:
        return _decide_double_back(state, owed, move, rest, events)
    if len(move.cards) != owed.size:
        raise illegal(
            "wrong_count", f"choose {owed.size} cards", f"{owed.size}枚選んでください", kind
        )
    if kind == DRAW:
        return _decide_drew(state, owed, move, rest, events)
    if kind == TAKE:
        return _decide_take(state, owed, move, rest, events)
    victim = owed.to if kind == DESTROY else seat
    if not seat_holds(state, victim, move.cards):
        raise not_held(victim)
    if kind == DISCARD:
        state = take_cards(state, seat, move.cards)
        events.append(event("discarded", seat=seat, cards=move.cards))
        return state._replace(
            owed=rest,
            discarded=add(state.discarded, move.cards),
            recent=move.cards,
            recent_zone=ZONE_DISCARDED,
        )
    if kind == DESTROY:
        return _decide_destroy(state, owed, move, rest, events)
    # give
    if owed.group:
        given = with_item(state.given, seat, move.cards)
        state = state._replace(owed=rest, given=given)
        if any(o.group for o in rest):
            return state
        receivers = queen_receivers(state)  # as the Q step computed them: no card has moved
        for s in range(state.seats):
            cards = state.given[s]
            if cards:
                state = take_cards(state, s, cards)
        for s in range(state.seats):
            cards = state.given[s]
            if cards:
                to = receivers[s]
                state = give_cards(state, to, cards)
                events.append(event("gave", seat=s, to=to, cards=cards, count=len(cards)))
        return state._replace(given=())
    state = take_cards(state, seat, move.cards)
    state = give_cards(state, owed.to, move.cards)
    events.append(event("gave", seat=seat, to=owed.to, cards=move.cards, count=len(move.cards)))
    return state._replace(owed=rest)


def _decide_target(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    if move.target not in targets(state, move.seat):
        raise illegal(
            "choice_invalid",
            "name another player still in",
            "まだ上がっていない他のプレイヤーを指名してください",
            "2/9",
        )
    target = move.target
    state = state._replace(owed=rest)
    hand = state.hands[target]
    if (hand is None and state.counts[target]) or (hand is not None and jokers(hand)):
        return owe(state, Owed(target, DOUBLE_BACK, 0, owed.source, owed.amount, owed.source))
    return push(state, Step("draw", target, owed.amount))


def _decide_double_back(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    state = state._replace(owed=rest)
    if move.action == ACCEPT:
        return push(state, Step("draw", move.seat, owed.amount))
    joker = make(EMPTY, 1)
    if not seat_holds(state, move.seat, joker):
        raise not_held(move.seat)
    state = take_cards(state, move.seat, joker)
    events.append(event("double_back", seat=move.seat, to=owed.source))
    amount = owed.amount * state.rules.double_back_factor
    state = state._replace(
        discarded=add(state.discarded, joker),
        recent=joker,
        recent_zone=ZONE_DISCARDED,
    )
    return push(state, Step("draw", owed.source, amount))


def _decide_take(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    cards = move.cards
    field_name, source = take_source(state)
    if not holds(common(state.take_pool, source), cards):
        raise illegal(
            "choice_invalid",
            "take back only cards of the play, cut, discard or destruction just before",
            "直前に出された・捨てられた・破壊されたカードから選んでください",
            "14",
        )
    state = state._replace(**{field_name: sub(source, cards)})  # type: ignore[arg-type]
    state = give_cards(state, move.seat, cards)
    events.append(event("took_back", seat=move.seat, cards=cards))
    return state._replace(owed=rest, take_pool=EMPTY, take_zone=ZONE_NONE)


def _decide_destroy(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    victim = owed.to
    cards = move.cards
    state = take_cards(state, victim, cards)
    events.append(event("destroyed", seat=move.seat, to=victim, cards=cards))
    state = state._replace(
        owed=rest,
        destroyed=add(state.destroyed, cards),
        recent=cards,
        recent_zone=ZONE_DESTROYED,
    )
    fours = sum(1 for c in to_list(cards) if c < 52 and c >> 2 == FOUR)
    sixes = any(c < 52 and c >> 2 == SIX for c in to_list(cards))
    steps: list[Step] = []
    if sixes:
        steps.append(Step("open", victim, 1))
    if fours:
        steps.append(Step("draw", victim, 4 * fours))
    return push(state, *steps)


def _decide_drew(
    state: State, owed: Owed, move: Move, rest: tuple[Owed, ...], events: list[DaizaibatsuEvent]
) -> State:
    hand = state.hands[move.seat]
    assert hand is not None
    try:
        new = add(hand, move.cards)
    except ValueError:
        raise illegal(
            "choice_invalid", "more copies than two packs hold", "2組を超える枚数です", "draw"
        ) from None
    return state._replace(owed=rest, hands=with_item(state.hands, move.seat, new))


# --- results -------------------------------------------------------------------------------


def final_order(state: State) -> tuple[int, ...]:
    """Seats first place first: finishers in order, then (rule 24) the players still in by
    fewest cards, equal counts in seat order from the seat that had to draw."""
    n = state.seats
    rest = [s for s in range(n) if s not in state.out]
    start = state.forced_by if state.forced_by >= 0 else 0
    rest.sort(key=lambda s: (state.counts[s], (s - start) % n))
    return (*state.out, *rest)


def outcome(state: State) -> tuple[SeatResult, ...] | None:
    if state.phase != PHASE_OVER:
        return None
    titles = TITLES.get(state.seats)
    return tuple(
        SeatResult(
            seat,
            place + 1,
            None,
            None,
            {
                "title": titles[place] if titles else None,
                "forced_end": state.forced_end,
                "cards_left": state.counts[seat],
            },
        )
        for place, seat in enumerate(final_order(state))
    )


def placings(state: State) -> list[dict[str, object]]:
    results = outcome(state)
    if results is not None:
        return [{"seat": r.seat, "place": r.place, **r.detail} for r in results]
    return [{"seat": s, "place": i + 1} for i, s in enumerate(state.out)]


def observe(state: State, viewer: int | None = None) -> dict[str, object]:
    """What ``viewer`` (a seat, or ``None``: the public) may see: the viewer's own hand and the
    open hands (rule 6), never another hidden hand or the pile's order."""
    open_hands: dict[str, list[str]] = {}
    for s, hand in enumerate(state.hands):
        if state.opened >> s & 1 and hand is not None:
            open_hands[str(s)] = names(hand)
    view: dict[str, object] = {
        "phase": "over" if state.phase == PHASE_OVER else "play",
        "turn": state.turn if state.phase == PHASE_PLAY else None,
        "to_move": list(to_move(state)),
        "counts": list(state.counts),
        "open_hands": open_hands,
        "table": None
        if state.table is None
        else {
            "seat": state.last,
            "cards": names(state.table_cards),
            "combination": state.table.kind,
            "size": state.table.size,
        },
        "direction": state.direction,
        "revolution": state.revolution,
        "revolution_pending": state.rev_chain,
        "eleven_back": state.back,
        "lock": suit_letters(state.lock) if state.lock >= 0 else None,
        "pile": state.pile_count,
        "renewals": state.renewals,
        "discarded": len(state.discarded),
        "destroyed": len(state.destroyed),
        "passed": [s for s in range(state.seats) if state.passed >> s & 1],
        "out": list(state.out),
        "pending": [
            {"seat": o.seat, "kind": o.kind, "count": o.size or o.amount} for o in state.owed
        ],
        "forced_end": state.forced_end,
    }
    if viewer is not None and 0 <= viewer < state.seats:
        hand = state.hands[viewer]
        view["hand"] = None if hand is None else names(hand)
    return view


# --- records -------------------------------------------------------------------------------

SETUP_KEYS: Final = frozenset({"seats", "hands", "counts", "pile", "seed", "leader", "moves"})
MOVE_KEYS: Final = frozenset(
    {
        "seat",
        "play",
        "pass",
        "as",
        "respond",
        "choice",
        "give",
        "discard",
        "destroy",
        "take",
        "drew",
    }
)
_ACTIONS: Final = (PLAY, PASS, "choice", GIVE, DISCARD, DESTROY, TAKE, DREW)


@dataclass(frozen=True, slots=True)
class DaizaibatsuRecord:
    """A validated record: the set-up and the moves."""

    rules: DaizaibatsuRules
    hands: tuple[Cards | None, ...] | None
    counts: tuple[int, ...] | None
    pile: tuple[Card, ...] | None
    pile_given: bool
    seed: str | None
    leader: int | None
    moves: tuple[Move, ...]

    def initial_state(self) -> State:
        return new_game(
            self.rules,
            self.hands,
            counts=self.counts,
            pile=self.pile if self.pile_given else PILE_NOT_GIVEN,
            seed=self.seed,
            leader=self.leader,
        )

    def sections(self) -> tuple[tuple[str, tuple[Move, ...]], ...]:
        return (("moves", self.moves),)


def _card_list(value: object, key: str) -> Cards:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise form_error("expected a list of cards", "カードのリストです", key)
    try:
        return parse([_name(v, f"{key}[{i}]") for i, v in enumerate(value)])
    except InvalidNotation as exc:
        raise RecordError(
            str(exc), key=key, code="unknown_card", message_ja="不明なカードです"
        ) from None


def _name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{value!r} is not a card", key=key, code="unknown_card")
    return value


def move_from_json(value: object, key: str, seats: int = 4) -> Move:
    """A :class:`Move` from a record's move object (form only; see the README)."""
    value, seat, action = read_move_object(value, key, seats, MOVE_KEYS, _ACTIONS)
    if ("as" in value or "respond" in value) and action != PLAY:
        raise form_error(
            "'as' and 'respond' belong to a play", "'as'・'respond' は play にだけ付けます", key
        )
    if action == PASS:
        if value[PASS] is not True:
            raise form_error("pass must be true when present", "pass は true です", f"{key}.pass")
        return Move(seat, PASS)
    if action == "choice":
        choice = value["choice"]
        if choice == DOUBLE_BACK:
            return Move(seat, DOUBLE_BACK)
        if choice == ACCEPT:
            return Move(seat, ACCEPT)
        if isinstance(choice, dict) and set(choice) == {TARGET}:
            target = choice[TARGET]
            if type(target) is int and 0 <= target < seats:
                return Move(seat, TARGET, target=target)
        raise form_error(
            'choice is {"target": seat}, "double_back" or "accept"',
            'choice は {"target": 席}・"double_back"・"accept" です',
            f"{key}.choice",
        )
    cards = _card_list(value[action], f"{key}.{action}")
    if action != PLAY:
        return Move(seat, action, cards)
    if not cards:
        raise RecordError(
            "a play needs cards",
            key=f"{key}.play",
            code="invalid_combination",
            message_ja="カードを選んでください",
        )
    named: tuple[Card, ...] = ()
    if "as" in value:
        raw = value["as"]
        if not isinstance(raw, list) or not raw:
            raise form_error("'as' lists cards", "'as' はカードのリストです", f"{key}.as")
        as_cards = _card_list(raw, f"{key}.as")
        if jokers(as_cards):
            raise RecordError(
                "a joker never stands for a joker", key=f"{key}.as", code="bad_joker_assignment"
            )
        named = tuple(to_list(as_cards))
    respond = value.get("respond", False)
    if type(respond) is not bool:
        raise form_error(
            "respond is true or false", "respond は true か false です", f"{key}.respond"
        )
    return Move(seat, PLAY, cards, named, -1, respond)


def move_to_json(move: Move) -> dict[str, object]:
    if move.action == PASS:
        return {"seat": move.seat, "pass": True}
    if move.action == TARGET:
        return {"seat": move.seat, "choice": {"target": move.target}}
    if move.action in (DOUBLE_BACK, ACCEPT):
        return {"seat": move.seat, "choice": move.action}
    out: dict[str, object] = {"seat": move.seat, move.action: names(move.cards)}
    if move.as_:
        out["as"] = [card_name(c) for c in move.as_]
    if move.respond:
        out["respond"] = True
    return out


def load_record(obj: Mapping[str, object], rules: DaizaibatsuRules) -> DaizaibatsuRecord:
    """The 大財閥 part of a record (``seats``, ``hands``, ``counts``, ``pile``, ``seed``,
    ``leader``, ``moves``)."""
    try:
        rules.require_complete()
    except RulesError as exc:
        raise RecordError(str(exc), key="rules", code="invalid_rules") from None
    seats = obj.get("seats", rules.seats)
    if type(seats) is not int or seats != rules.seats:
        raise RecordError(f"{rules.key} is set for {rules.seats} seats", key="seats")
    seed = obj.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise RecordError("seed is a string", key="seed")
    raw_hands = obj.get("hands")
    hands: tuple[Cards | None, ...] | None = None
    if raw_hands is not None:
        if not isinstance(raw_hands, list) or len(raw_hands) != seats:
            raise RecordError(f"expected a list of {seats} hands", key="hands")
        hands = tuple(
            None if h is None else _card_list(h, f"hands[{i}]") for i, h in enumerate(raw_hands)
        )
    elif seed is None:
        raise RecordError("give the hands or a seed", key="hands")
    raw_counts = obj.get("counts")
    counts: tuple[int, ...] | None = None
    if raw_counts is not None:
        if not isinstance(raw_counts, list) or not all(
            type(c) is int and c >= 0 for c in raw_counts
        ):
            raise RecordError("counts are card counts", key="counts")
        counts = tuple(raw_counts)
    pile: tuple[Card, ...] | None = None
    pile_given = "pile" in obj
    if pile_given and obj["pile"] is not None:
        pile = tuple(to_list_ordered(obj["pile"]))
    leader = obj.get("leader")
    if leader is not None and (type(leader) is not int or not 0 <= leader < seats):
        raise RecordError(f"leader is a seat 0 … {seats - 1}", key="leader")
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("expected a list", key="moves")
    moves = tuple(move_from_json(m, f"moves[{i}]", seats) for i, m in enumerate(raw_moves))
    record = DaizaibatsuRecord(
        rules, hands, counts, pile, pile_given, seed, leader if type(leader) is int else None, moves
    )
    record.initial_state()
    return record


def to_list_ordered(value: object) -> list[Card]:
    """A pile's cards in the record's order (top first)."""
    if not isinstance(value, list):
        raise RecordError("the pile is a list of cards (top first) or null", key="pile")
    out: list[Card] = []
    for i, name in enumerate(value):
        try:
            out.append(to_list(parse([_name(name, f"pile[{i}]")]))[0])
        except InvalidNotation as exc:
            raise RecordError(str(exc), key=f"pile[{i}]", code="unknown_card") from None
    return out


def export_record(start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
    setup = start.setup if isinstance(start, State) else start
    out: dict[str, object] = {
        "seats": setup.rules.seats,
        "hands": [None if h is None else names(h) for h in setup.hands],
    }
    if any(h is None for h in setup.hands):
        out["counts"] = list(setup.counts)
    out["pile"] = None if setup.pile is None else [card_name(c) for c in setup.pile]
    if setup.seed is not None:
        out["seed"] = setup.seed.decode("utf-8", "replace")
    if setup.leader is not None:
        out["leader"] = setup.leader
    out["moves"] = [move_to_json(m) for m in actions]
    return out


# --- snapshots -----------------------------------------------------------------------------

_SNAPSHOT_FIELDS: Final = tuple(f for f in State._fields if f != "setup")
_CARD_FIELDS: Final = frozenset(
    {"flowed", "discarded", "destroyed", "table_cards", "kill_cards", "recent", "take_pool"}
)


def snapshot(state: State) -> dict[str, object]:
    """The state without its set-up, as JSON-able data."""
    data: dict[str, object] = {}
    for name in _SNAPSHOT_FIELDS:
        value = getattr(state, name)
        if isinstance(value, Cards):
            data[name] = names(value)
        elif name == "table":
            data[name] = (
                None if value is None else [value.kind, names(value.reading), value.joker_count]
            )
        elif name in ("hands", "given"):
            data[name] = [None if h is None else names(h) for h in value]
        elif name in ("queue", "owed"):
            data[name] = [list(item) for item in value]
        elif isinstance(value, tuple):
            data[name] = list(value)
        else:
            data[name] = value
    return data


def restore(setup: Setup, data: Mapping[str, object]) -> State:
    """A state from :func:`snapshot`'s data and the set-up; raises ``SnapshotError``."""
    if set(data) != set(_SNAPSHOT_FIELDS):
        raise SnapshotError("not a Daizaibatsu snapshot (its fields differ)")
    try:
        values: dict[str, object] = {}
        for name in _SNAPSHOT_FIELDS:
            raw = data[name]
            if name in _CARD_FIELDS:
                assert isinstance(raw, list)
                values[name] = parse(raw)
            elif name == "table":
                if raw is None:
                    values[name] = None
                else:
                    assert isinstance(raw, list) and len(raw) == 3
                    kind, reading, k = raw
                    assert isinstance(reading, list) and type(k) is int
                    combo = jokers_alone(k) if kind == JOKERS else classify(parse(reading), k)
                    assert combo is not None
                    values[name] = combo
            elif name in ("hands", "given"):
                assert isinstance(raw, list)
                values[name] = tuple(None if h is None else parse(h) for h in raw)
            elif name == "queue":
                assert isinstance(raw, list)
                values[name] = tuple(Step(*item) for item in raw)
            elif name == "owed":
                assert isinstance(raw, list)
                values[name] = tuple(Owed(*item) for item in raw)
            elif name == "pile":
                values[name] = None if raw is None else tuple(raw)  # type: ignore[arg-type]
            elif isinstance(raw, list):
                assert all(type(v) is int for v in raw)
                values[name] = tuple(raw)
            else:
                assert type(raw) in (int, bool)
                values[name] = raw
        return State(setup, **values)  # type: ignore[arg-type]
    except (AssertionError, InvalidNotation, ValueError, TypeError) as exc:
        raise SnapshotError(f"not a Daizaibatsu snapshot: {exc}") from None


# --- the family ----------------------------------------------------------------------------


class DaizaibatsuFamily:
    """大財閥 behind the :class:`~games.engine.family.Family` interface."""

    name: Final = FAMILY
    presets: Final[Mapping[str, DaizaibatsuRules]] = PRESETS
    record_keys: Final = SETUP_KEYS
    metrics: Final = (
        Metric("daifugo", "title", "daifugo"),
        Metric("fugo", "title", "fugo"),
        Metric("heimin", "title", "heimin"),
        Metric("hinmin", "title", "hinmin"),
        Metric("daihinmin", "title", "daihinmin", FEWER),
        Metric("forced_ends", "forced_end", True, FEWER),
    )

    def ruleset(self, value: object) -> DaizaibatsuRules:
        return ruleset_from_record(value)

    def new_game(self, rules: DaizaibatsuRules, **setup: object) -> State:
        hands = setup.pop("hands", None)
        return new_game(rules, hands, **setup)  # type: ignore[arg-type]

    def legal_moves(self, state: State) -> Iterator[Move]:
        return legal_moves(state)

    def apply(self, state: State, move: Move) -> tuple[State, tuple[DaizaibatsuEvent, ...]]:
        return apply(state, move)

    def pending(self, state: State) -> tuple[Decision, ...]:
        return pending(state)

    def to_move(self, state: State) -> tuple[int, ...]:
        return to_move(state)

    def is_over(self, state: State) -> bool:
        return state.phase == PHASE_OVER

    def observe(self, state: State, viewer: int | None = None) -> dict[str, object]:
        return observe(state, viewer)

    def outcome(self, state: State) -> tuple[SeatResult, ...] | None:
        return outcome(state)

    def placings(self, state: State) -> list[dict[str, object]]:
        return placings(state)

    def load_record(self, obj: Mapping[str, object], rules: DaizaibatsuRules) -> DaizaibatsuRecord:
        return load_record(obj, rules)

    def export_record(self, start: State | Setup, actions: Sequence[Move]) -> dict[str, object]:
        return export_record(start, actions)

    def move_from_json(self, value: object, key: str, seats: int) -> Move:
        return move_from_json(value, key, seats)

    def move_to_json(self, move: Move) -> dict[str, object]:
        return move_to_json(move)

    def deal(self, seed: bytes | str, rules: DaizaibatsuRules) -> DaizaibatsuDeal:
        return deal(seed, rules)

    def snapshot(self, state: State) -> dict[str, object]:
        return snapshot(state)

    def restore(self, setup: Setup, data: Mapping[str, object]) -> State:
        return restore(setup, data)


DAIZAIBATSU_FAMILY: Final = DaizaibatsuFamily()
register(DAIZAIBATSU_FAMILY)

__all__ = [
    "DAIZAIBATSU",
    "DAIZAIBATSU_FAMILY",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PILE_NOT_GIVEN",
    "RENEWAL_ALGORITHM",
    "STEPS",
    "SWITCHES",
    "Combo",
    "DaizaibatsuDeal",
    "DaizaibatsuEvent",
    "DaizaibatsuRules",
    "Move",
    "Owed",
    "Setup",
    "State",
    "Step",
    "apply",
    "deal",
    "judge",
    "legal_moves",
    "load_record",
    "move_from_json",
    "move_to_json",
    "names",
    "new_game",
    "observe",
    "outcome",
    "pending",
    "read_play",
    "renewal_order",
    "restore",
    "snapshot",
    "to_move",
]
