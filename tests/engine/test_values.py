"""States are values: immutable by contract, equal and hashed by every field, picklable.

They are plain classes, not frozen dataclasses (a dataclass's setattr path cost most of a
move); mypy enforces the immutability, since every attribute is declared ``Final``.
"""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

import games.engine
from games.engine import JDF, Combo, Move, State, apply, new_game

CORE = Path(games.engine.__file__).parent / "core.py"
VALUE_CLASSES = {"State": State, "Combo": Combo, "Move": Move}


def a_state() -> State:
    state = new_game(JDF, ["3S 5D 9C", "4H 6C TD", "7S 9D JH", "8H TC QS"])
    return apply(state, Move.play(0, "3S"))[0]


def class_annotations(name: str) -> list[tuple[str, str]]:
    """(attribute, annotation) in the order the class body of ``name`` in core.py declares them."""
    tree = ast.parse(CORE.read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name).body
    return [
        (n.target.id, ast.unparse(n.annotation))
        for n in body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]


@pytest.mark.parametrize("name", VALUE_CLASSES)
def test_every_field_is_final_so_mypy_refuses_a_write(name: str) -> None:
    cls = VALUE_CLASSES[name]
    declared = [(a, t) for a, t in class_annotations(name) if a != "_fields"]
    assert [a for a, _ in declared] == list(cls._fields)
    assert all(t.startswith("Final[") for _, t in declared), declared


def test_a_state_takes_no_new_attribute() -> None:
    state = a_state()
    with pytest.raises(AttributeError):
        state.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        state.table.extra = 1  # type: ignore[union-attr]


def test_a_combo_keeps_the_named_tuple_conveniences() -> None:
    table = a_state().table
    assert table is not None
    assert table == Combo(*[getattr(table, f) for f in Combo._fields])
    assert hash(table) == hash(table._replace())
    moved = table._replace(seat=2, suits=4)
    assert (moved.seat, moved.suits, moved.cards) == (2, 4, table.cards)
    assert moved != table and table.seat == 0
    assert (
        repr(table)
        == "Combo(kind=1, size=1, rank=0, suits=1, joker=False, cards=1, as_cards=0, seat=0)"
    )


def test_a_state_is_equal_and_hashed_by_its_fields() -> None:
    state = a_state()
    values = [getattr(state, f) for f in State._fields]
    again = State(*values)
    assert again == state and hash(again) == hash(state)
    assert again is not state
    for i, name in enumerate(State._fields):
        if name == "setup":
            continue
        value = values[i]
        changed = list(values)
        if name == "table":
            changed[i] = None
        elif isinstance(value, bool):
            changed[i] = not value
        elif isinstance(value, int):
            changed[i] = value + 1
        else:
            changed[i] = (*value, 0)
        assert State(*changed) != state, name
    with pytest.raises(TypeError):
        State(*values, 0)  # type: ignore[call-arg]


def test_a_state_survives_copy_and_pickle() -> None:
    state = a_state()
    assert copy.copy(state) == state
    assert copy.copy(state.table) == state.table
    assert repr(state).startswith("State(setup=Setup(")
    if games.engine.COMPILED:
        pytest.skip("a compiled RuleSet (a frozen dataclass) cannot be unpickled")
    assert pickle.loads(pickle.dumps(state)) == state


def test_moves_are_equal_and_hashed_by_their_fields() -> None:
    move = Move.play(0, "3S")
    assert move == Move(0, 1) and hash(move) == hash(Move(0, 1))
    assert move != Move(0, 1, respond=True) and move != Move(1, 1)
    assert len({move, Move(0, 1), Move.pass_turn(0), Move(0, is_pass=True)}) == 2
    assert repr(move) == (
        "Move(seat=0, cards=1, is_pass=False, as_cards=0, declare=None, choice=None, "
        "exchange=False, respond=False, misplay=False)"
    )
    assert Move.misplayed(0, "3S") != move
    assert copy.copy(move) == move and pickle.loads(pickle.dumps(move)) == move
    with pytest.raises(AttributeError):
        move.extra = 1  # type: ignore[attr-defined]
