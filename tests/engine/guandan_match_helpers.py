"""Match records for the tests, taken from the conformance vectors (two hands each)."""

from __future__ import annotations

import copy
import json

from games.engine.record import CONFORMANCE_DIR

MATCH_VECTORS = CONFORMANCE_DIR / "guandan-cn"


def match_vector(name: str) -> dict[str, object]:
    """A fresh copy of a match vector (``m01-match-won-at-ace`` …), safe to change."""
    path = MATCH_VECTORS / f"{name}.json"
    return dict(json.loads(path.read_text(encoding="utf-8")))


def match_record(name: str) -> dict:  # type: ignore[type-arg]
    """A fresh copy of a match vector's record."""
    return copy.deepcopy(match_vector(name)["record"])  # type: ignore[no-any-return]
