"""大財閥 plays read and judged: what a play represents (jokers standing in), whether it
beats the table (cuts, locks, down number, revolutions) and forbidden finishes (F4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card
from .daizaibatsu_combos import (
    ACE,
    EIGHT,
    JACK,
    JOKERS,
    SET,
    STAIRS,
    THREE,
    TWO,
    Combo,
    classify,
    from_list,
    jokers,
    jokers_alone,
    numbers,
    readings,
    strength,
)
from .daizaibatsu_state import (
    CUT_EIGHT,
    CUT_NONE,
    CUT_SANDSTORM,
    CUT_SPADE_THREE,
    State,
    illegal,
    zone_cards,
)
from .errors import IllegalMove
from .multideck import Cards

# --- reading a play ------------------------------------------------------------------------


def read_play(cards: Cards, as_: Sequence[Card]) -> Combo:
    """The combination ``cards`` form with the jokers standing for ``as_`` (inferred when the
    reading is unique); raises ``IllegalMove``."""
    nums = numbers(cards)
    k = jokers(cards)
    if not cards:
        raise illegal("invalid_combination", "a play needs cards", "カードを出してください", "1")
    if not nums:
        if as_:
            raise illegal(
                "bad_joker_assignment",
                "jokers played alone stand for nothing",
                "ジョーカーだけのときは何の代わりにもなりません",
                "16",
            )
        if k > 3:
            raise illegal(
                "invalid_combination",
                "at most three jokers may be played alone",
                "ジョーカーだけで出せるのは3枚までです",
                "16",
            )
        return jokers_alone(k)
    if k == 0:
        if as_:
            raise illegal(
                "bad_joker_assignment", "no joker to assign", "ジョーカーがありません", "16"
            )
        found = classify(nums, 0)
        if found is None:
            raise _not_a_combination()
        return found
    if as_:
        if len(as_) != k or any(c >= 52 for c in as_):
            raise illegal(
                "bad_joker_assignment",
                f"name one number card for each of the {k} jokers",
                f"ジョーカー{k}枚それぞれの代わりのカードを指定してください",
                "16",
            )
        try:
            reading = nums + from_list(as_)
        except ValueError:
            raise illegal(
                "bad_joker_assignment",
                "a joker may not stand for a third copy of a card",
                "同じカードは2枚までです",
                "16",
            ) from None
        found = classify(reading, k)
        if found is None:
            raise _not_a_combination()
        return found
    options = readings(nums, k)
    if not options:
        raise _not_a_combination()
    if len(options) > 1:
        raise illegal(
            "choice_required",
            "say what the jokers stand for ('as')",
            "ジョーカーが何の代わりか指定してください",
            "16",
        )
    found = classify(nums + from_list(options[0]), k)
    assert found is not None
    return found


def _not_a_combination() -> IllegalMove:
    return illegal(
        "invalid_combination",
        "not a set or stairs",
        "同じ数字か階段ではありません",
        "1–2",
    )


# --- checking a play against the table -----------------------------------------------------


class Verdict(NamedTuple):
    """How a legal play lands: ``cut`` (CUT_*), a ``down_number``, a new suit ``lock``
    (-1: none), a ``counter`` revolution."""

    cut: int
    down_number: bool
    lock: int
    counter: bool


def _error(code: str, en: str, ja: str, rule: str) -> tuple[str, str, str, str]:
    return (code, en, ja, rule)


def judge(state: State, combo: Combo, respond: bool = False) -> Verdict | tuple[str, str, str, str]:
    """The verdict on ``combo`` in ``state`` (or the error: code, English, Japanese, rule).
    ``respond``: an answer in the 8-cut window (only 砂嵐, 3s revolutions and stairs
    revolutions holding a 3)."""
    table = state.table
    if respond:
        ok = combo.sandstorm or (
            combo.revolution
            and (
                (combo.kind == SET and combo.rank == THREE)
                or (combo.kind == STAIRS and combo.rank == THREE)
            )
        )
        if not ok:
            return _error(
                "no_cut",
                "only 砂嵐, four 3s or stairs revolution with a 3 answer an 8-cut",
                "8切りを返せるのは砂嵐・3の革命・3を含む階段革命だけです",
                "8",
            )
        return Verdict(CUT_SANDSTORM if combo.sandstorm else CUT_NONE, False, -1, False)
    if table is None:
        return Verdict(CUT_SANDSTORM if combo.sandstorm else _eight(combo), False, -1, False)
    order = state.reversed_order
    if table.kind == JOKERS:
        if combo.sandstorm:
            return Verdict(CUT_SANDSTORM, False, -1, False)
        if combo.spade_threes and combo.size == table.size:
            return Verdict(CUT_SPADE_THREE, False, -1, False)
        if combo.kind == SET and combo.rank == THREE and combo.joker_count:
            return _error(
                "invalid_combination",
                "no joker may stand in for ♠3",
                "♠3の代わりにジョーカーは使えません",
                "3",
            )
        return _error(
            "not_stronger",
            f"only ♠3 × {table.size} or 砂嵐 cut jokers × {table.size}",
            f"ジョーカー{table.size}枚を切れるのは♠3 {table.size}枚か砂嵐だけです",
            "16",
        )
    if combo.sandstorm and not _is_revolution_table(state):
        return Verdict(CUT_SANDSTORM, False, -1, False)
    if combo.sandstorm:
        return _error(
            "not_stronger",
            "砂嵐 cannot cut a revolution",
            "砂嵐は革命を切れません",
            "3",
        )
    if combo.kind == JOKERS:
        if table.kind != SET:
            return _error(
                "wrong_kind", "jokers alone answer a set", "ジョーカーはペア等にだけ出せます", "16"
            )
        if table.size != combo.size:
            return _wrong_count(table.size)
        return Verdict(CUT_NONE, False, -1, False)
    if combo.kind != table.kind:
        return _error(
            "wrong_kind",
            f"the table is a {table.kind}",
            "場と同じ形で出してください",
            "1",
        )
    cut = _eight(combo)
    if combo.kind == STAIRS:
        if table.revolution and combo.size > table.size:
            return Verdict(cut, False, -1, True)
        if combo.size != table.size:
            return _wrong_count(table.size)
        if state.lock >= 0 and combo.suits != state.lock:
            return _locked()
        if combo.weakest(order) <= table.weakest(order):
            return _weaker()
        lock = table.suits if state.lock < 0 and combo.suits == table.suits else -1
        return Verdict(cut, False, lock, table.revolution and combo.revolution)
    # sets
    if combo.size >= 4:
        if table.size <= 3:
            return _error(
                "too_small_a_table",
                "a set of four or more may not be played on 1–3 cards",
                "4枚以上の組は1〜3枚の場に出せません",
                "20",
            )
        if combo.size > table.size:
            return Verdict(cut, False, -1, True)
    if combo.size != table.size:
        return _wrong_count(table.size)
    if state.lock >= 0 and combo.suits != state.lock:
        return _locked()
    if strength(combo.rank, order) > _table_strength(table, order):
        lock = table.suits if state.lock < 0 and combo.suits == table.suits else -1
        return Verdict(cut, False, lock, combo.revolution)
    if (
        _down_number_table(state, table)
        and combo.suits == table.suits
        and strength(combo.rank, order) == strength(table.rank, order) - 1
    ):
        return Verdict(cut, True, table.suits if state.lock < 0 else -1, False)
    return _weaker()


def _table_strength(table: Combo, order: bool) -> int:
    return strength(table.rank, order)


def _eight(combo: Combo) -> int:
    if combo.kind == JOKERS:
        return CUT_NONE
    return CUT_EIGHT if any(r == EIGHT for r, _ in combo.rank_counts()) else CUT_NONE


def _is_revolution_table(state: State) -> bool:
    table = state.table
    return table is not None and (
        table.revolution
        or (table.three_nines and state.rules.three_nines_at_once)
        or state.rev_chain > 0
    )


def _down_number_table(state: State, table: Combo) -> bool:
    """Rule 18: not on an 8, J, joker, 砂嵐, any revolution or a ♠3."""
    return not (
        table.rank in (EIGHT, JACK)
        or table.joker_count
        or table.sandstorm
        or _is_revolution_table(state)
        or table.spade_threes
    )


def _wrong_count(size: int) -> tuple[str, str, str, str]:
    return _error("wrong_count", f"play {size} cards", f"{size}枚で出してください", "1")


def _locked() -> tuple[str, str, str, str]:
    return _error("suit_locked", "the suits are locked", "縛りのマークで出してください", "17")


def _weaker() -> tuple[str, str, str, str]:
    return _error("not_stronger", "not stronger than the table", "場より強くありません", "1")


def forbidden_finish(state: State, combo: Combo) -> bool:
    """F4: going out with 3s only in a revolution, 8s only, 2s only in normal order, jokers
    only."""
    if not state.rules.forbidden_finish:
        return False
    if combo.kind == JOKERS:
        return True
    if any(rank == ACE for rank, _ in combo.rank_counts()) and not zone_cards(
        state, state.recent, state.recent_zone
    ):
        return True  # an A that has nothing to take back would finish
    if combo.kind != SET:
        return False
    return (
        combo.rank == EIGHT
        or (combo.rank == THREE and state.revolution)
        or (combo.rank == TWO and not state.revolution)
    )
