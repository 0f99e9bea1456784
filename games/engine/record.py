"""The ``kakumei-record/1`` game record: load and validate, replay, export.

See ``record-format.md``.  :func:`replay` is what ``python -m games.engine replay``
and the conformance vectors use: every move gets a verdict, and an illegal move is
not applied (the next one is judged against the unchanged state), as a referee
console behaves.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from . import daifugo as _daifugo  # noqa: F401  (registers the family)
from . import guandan as _guandan  # noqa: F401  (registers the family)
from .errors import EngineError, IllegalMove, RecordError, RulesError
from .events import Event
from .family import Family, GameRecord, family_of, ruleset_from_record

FORMAT: Final = "kakumei-record/1"
CONFORMANCE_FORMAT: Final = "kakumei-conformance/1"


def load_record(data: str | bytes | Mapping[str, object]) -> GameRecord:
    """Parse and validate a record (JSON text or a decoded object).

    ``format`` and ``rules`` are read here; the ruleset names the family, which reads the
    rest (its set-up keys and actions). Raises :class:`RecordError` naming the key (or card)
    at fault; moves are only checked for form — their legality is what :func:`replay` judges.
    """
    if isinstance(data, str | bytes):
        try:
            obj: object = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RecordError("a record is a JSON object")
    if obj.get("format") != FORMAT:
        raise RecordError(f"expected {FORMAT!r}, got {obj.get('format')!r}", key="format")
    try:
        rules = ruleset_from_record(obj.get("rules", "jdf"))
    except RulesError as exc:
        raise RecordError(str(exc), key="rules", code=exc.code) from None
    family = family_of(rules)
    unknown = set(obj) - family.record_keys - {"format", "rules"}
    if unknown:
        raise RecordError("unknown key", key=str(sorted(map(str, unknown))[0]))
    return family.load_record(obj, rules)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verdict on one move of a record."""

    index: int
    ok: bool
    events: tuple[Event, ...] = ()
    error: IllegalMove | None = None

    def to_dict(self) -> dict[str, object]:
        if self.ok:
            return {"i": self.index, "ok": True, "events": [e.kind for e in self.events]}
        assert self.error is not None
        return {
            "i": self.index,
            "ok": False,
            "code": self.error.code,
            "message": self.error.message_en,
        }


@dataclass(slots=True)
class Replay:
    """The result of :func:`replay`: verdicts per section, and the state after the last legal
    action."""

    record: GameRecord
    state: Any
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)

    @property
    def family(self) -> Family:
        return family_of(self.record.rules)

    @property
    def moves(self) -> list[Verdict]:
        return self.verdicts.get("moves", [])

    @property
    def exchange(self) -> list[Verdict]:
        return self.verdicts.get("exchange", [])

    @property
    def finished(self) -> bool:
        return self.family.is_over(self.state)

    def to_dict(self) -> dict[str, object]:
        """The replay output of record-format.md: a verdict list per section of the record
        (``moves``, plus ``exchange`` when a 大富豪 record has one), ``finished``, ``placings``."""
        out: dict[str, object] = {
            name: [v.to_dict() for v in verdicts] for name, verdicts in self.verdicts.items()
        }
        out["finished"] = self.finished
        out["placings"] = self.family.placings(self.state)
        return out


def replay(record: GameRecord | str | bytes | Mapping[str, object]) -> Replay:
    """Judge every action of a record in order (illegal ones are skipped, as a referee
    console does: the next one is judged against the unchanged state)."""
    # Text or a decoded object is loaded first; a loaded record has its sections.
    if hasattr(record, "sections"):
        loaded: GameRecord = record  # type: ignore[assignment]
    else:
        loaded = load_record(record)
    family = family_of(loaded.rules)
    state = loaded.initial_state()
    result = Replay(loaded, state)
    sections = loaded.sections()
    for name, actions in sections:
        result.verdicts[name] = []
        for i, action in enumerate(actions):
            state = _judge(family, state, action, i, result.verdicts[name])
    result.state = state
    return result


def _judge(family: Family, state: Any, action: Any, index: int, out: list[Verdict]) -> Any:
    try:
        new, events = family.apply(state, action)
    except IllegalMove as exc:
        out.append(Verdict(index, False, error=exc))
        return state
    out.append(Verdict(index, True, events))
    return new


def export_record(start: Any, actions: Iterable[Any]) -> dict[str, object]:
    """A ``kakumei-record/1`` object for a game started at ``start`` (its initial state or
    set-up) followed by ``actions`` (every action, in the order they were applied)."""
    rules = start.rules
    record: dict[str, object] = {"format": FORMAT, "rules": rules.to_record()}
    record.update(family_of(rules).export_record(start, list(actions)))
    return record


# --- conformance vectors ---------------------------------------------------------------

VECTOR_KEYS: Final = frozenset({"format", "name", "reference", "description", "record", "expect"})
EXPECT_KEYS: Final = frozenset({"moves", "exchange", "finished", "placings", "observe"})


def check_vector(vector: Mapping[str, object]) -> list[str]:
    """Run a ``kakumei-conformance/1`` vector through :func:`replay`; the list of mismatches.

    ``expect.moves`` / ``expect.exchange`` list verdicts by ``i``, each checking only
    the keys it gives (``ok``, ``code``, ``events``); ``finished`` and ``placings``
    compare with the replay output (each placing checks the keys it gives);
    ``observe`` compares keys of the public :func:`observe` view of the final state.
    """
    unknown = set(vector) - VECTOR_KEYS
    if unknown or vector.get("format") != CONFORMANCE_FORMAT:
        raise RecordError(
            f"not a {CONFORMANCE_FORMAT} vector (keys: {sorted(map(str, unknown))})", key="format"
        )
    expect = vector.get("expect")
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        raise RecordError("expect must be an object with known keys", key="expect")
    record = vector.get("record")
    if not isinstance(record, dict):
        raise RecordError("expected a record object", key="record")
    result = replay(record)
    output = result.to_dict()
    problems: list[str] = []
    for part in ("moves", "exchange"):
        wanted = expect.get(part)
        if wanted is None:
            continue
        got = output.get(part, [])
        assert isinstance(got, list)
        for item in wanted:
            i = item["i"]
            if not 0 <= i < len(got):
                problems.append(f"{part}[{i}]: no such move")
                continue
            for key, value in item.items():
                if got[i].get(key) != value:
                    problems.append(
                        f"{part}[{i}].{key}: expected {value!r}, got {got[i].get(key)!r}"
                    )
    if "finished" in expect and output["finished"] != expect["finished"]:
        problems.append(f"finished: expected {expect['finished']!r}, got {output['finished']!r}")
    if "placings" in expect:
        got_p = output["placings"]
        want_p = expect["placings"]
        assert isinstance(got_p, list)
        if not isinstance(want_p, list) or len(got_p) != len(want_p):
            problems.append(f"placings: expected {want_p!r}, got {got_p!r}")
        else:
            for i, (g, w) in enumerate(zip(got_p, want_p, strict=True)):
                for key, value in w.items():
                    if g.get(key) != value:
                        problems.append(
                            f"placings[{i}].{key}: expected {value!r}, got {g.get(key)!r}"
                        )
    if "observe" in expect:
        view = result.family.observe(result.state, None)
        for key, value in expect["observe"].items():
            if view.get(key) != value:
                problems.append(f"observe.{key}: expected {value!r}, got {view.get(key)!r}")
    return problems


def load_vectors(directory: str | Path) -> list[tuple[Path, dict[str, object]]]:
    """Every ``*.json`` vector under ``directory``, sorted by path."""
    out: list[tuple[Path, dict[str, object]]] = []
    for path in sorted(Path(directory).rglob("*.json")):
        out.append((path, json.loads(path.read_text(encoding="utf-8"))))
    return out


# Beside the package's __init__.py, which is always the source file: a compiled record module
# lives in the build directory and has no __file__ while it initialises.
CONFORMANCE_DIR: Final = Path(str(resources.files(__name__.rpartition(".")[0]) / "conformance"))


__all__ = [
    "CONFORMANCE_DIR",
    "FORMAT",
    "EngineError",
    "GameRecord",
    "Replay",
    "Verdict",
    "check_vector",
    "export_record",
    "load_record",
    "load_vectors",
    "replay",
]
