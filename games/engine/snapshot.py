"""Snapshots: a state's dynamic fields as JSON-able data, restored against its :class:`Setup`.

A service that stores games keeps the log of moves as the truth and a snapshot of the latest
state beside it, so serving the next move does not replay the whole game (docs/design.md, "snapshot
+ replay"). The :class:`Setup` (rules, deal, titles) is not in the snapshot: it follows from
how the game was started, which the service stores anyway.

Fields are keyed by name, so a snapshot written before a field was added no longer restores
(:class:`SnapshotError`); the caller then replays the log, as it would without a snapshot.

>>> from games.engine import JDF, new_game, apply, Move
>>> state = new_game(JDF, ["3S 5D", "4H 6C", "7S 9D", "8H TD"])
>>> state, _ = apply(state, Move.play(0, "3S"))
>>> restore(state.setup, snapshot(state)) == state
True
"""

from __future__ import annotations

from typing import Final

from .core import Combo, Extras, Setup, State
from .errors import EngineError

# The state's fields by name, with its ``extras`` spread out as the fields they hold.
_FIELDS: Final[tuple[str, ...]] = (
    *(f for f in State._fields if f not in ("setup", "extras")),
    *Extras._fields,
)
_TUPLES: Final[frozenset[str]] = frozenset(
    {"hands", "counts", "clean", "fouls", "gives", "stalemate", "exposed"}
)
_BOOLS: Final[frozenset[str]] = frozenset({"revolution", "start", "nlock"})

Snapshot = dict[str, object]


class SnapshotError(EngineError):
    """The data is not a snapshot of this engine's states (code ``snapshot_invalid``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="snapshot_invalid")


def snapshot(state: State) -> Snapshot:
    """The state without its set-up, as JSON-able data (ints, bools, lists, null)."""
    data: Snapshot = {}
    for name in _FIELDS:
        value = getattr(state, name)
        if isinstance(value, Combo):
            data[name] = [getattr(value, field) for field in Combo._fields]
        else:
            data[name] = list(value) if isinstance(value, tuple) else value
    return data


def _int(name: str, value: object) -> int:
    if type(value) is not int:
        raise SnapshotError(f"{name}: expected an integer, got {value!r}")
    return value


def restore(setup: Setup, data: object) -> State:
    """The state that ``snapshot`` described, on ``setup``; raises :class:`SnapshotError`."""
    if not isinstance(data, dict) or set(data) != set(_FIELDS):
        raise SnapshotError("not a snapshot of this engine version's states")
    values: dict[str, object] = {}
    for name in _FIELDS:
        raw = data[name]
        if name == "table":
            if raw is None:
                values[name] = None
                continue
            if not isinstance(raw, list) or len(raw) != len(Combo._fields):
                raise SnapshotError(f"table: expected {len(Combo._fields)} values")
            items: list[int | bool] = []
            for field, v in zip(Combo._fields, raw, strict=True):
                if field == "joker":
                    if not isinstance(v, bool):
                        raise SnapshotError("table.joker: expected true or false")
                    items.append(v)
                else:
                    items.append(_int(f"table.{field}", v))
            values[name] = Combo(*items)  # type: ignore[arg-type]
        elif name in _TUPLES:
            if not isinstance(raw, list):
                raise SnapshotError(f"{name}: expected a list")
            values[name] = tuple(_int(name, v) for v in raw)
        elif name in _BOOLS:
            if not isinstance(raw, bool):
                raise SnapshotError(f"{name}: expected true or false")
            values[name] = raw
        else:
            values[name] = _int(name, raw)
    if len(values["counts"]) != len(setup.counts):  # type: ignore[arg-type]
        raise SnapshotError("the snapshot is of a game with another number of seats")
    extras = Extras(*(values.pop(name) for name in Extras._fields))  # type: ignore[arg-type]
    return State(setup, **values, extras=extras)  # type: ignore[arg-type]
