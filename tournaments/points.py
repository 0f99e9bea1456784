"""Points tables (順位点): how many points each finishing place scores, per table size.

Stored on `Tournament.points_table` as JSON, e.g.
``{"preset": "3-2-1-0", "places": {"3": [2, 1, 0], "4": [3, 2, 1, 0], "5": [4, 3, 2, 1, 0]}}``:
one list per seat count a table of the tournament can have, first place first. The JDF's own
points per title were not found (REFERENCE §1.2), so the `jdf` ruleset ships no points: the
organiser picks one of these clearly non-JDF presets or enters a table. Bonuses come with the
scoring issue (#7).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

# preset -> (label, places for 3, 4 and 5 seats)
PRESETS: Mapping[str, tuple[str, Mapping[int, list[int]]]] = {
    "3-2-1-0": (
        "3-2-1-0: one point per player out after you (pagat President; not JDF)",
        {3: [2, 1, 0], 4: [3, 2, 1, 0], 5: [4, 3, 2, 1, 0]},
    ),
    "plus2-minus2": (
        "+2 / +1 / −1 / −2 (JDF-based apps; a 5-player 平民 scores 0; not JDF)",
        {3: [1, 0, -1], 4: [2, 1, -1, -2], 5: [2, 1, 0, -1, -2]},
    ),
    "5-4-3-2-1": (
        "5-4-3-2-1 (UECda style; not JDF)",
        {3: [3, 2, 1], 4: [4, 3, 2, 1], 5: [5, 4, 3, 2, 1]},
    ),
}
DEFAULT_PRESET = "3-2-1-0"


def preset_points_table(preset: str) -> dict[str, Any]:
    """The JSON value of a points-table preset."""
    if preset not in PRESETS:
        raise ValidationError(f"Unknown points preset {preset!r}.", code="unknown_preset")
    _, places = PRESETS[preset]
    return {"preset": preset, "places": {str(n): list(p) for n, p in places.items()}}


def validate_points_table(value: object, table_size: int | None = None) -> None:
    """Raise `ValidationError` unless `value` is a well-formed points table.

    Every list must have one entry per seat, be integers and never increase (a better place
    never scores less); `table_size` and, when short tables may occur, `table_size - 1` must be
    covered.
    """
    if not isinstance(value, dict) or not isinstance(value.get("places"), dict):
        raise ValidationError("A points table needs a 'places' object.", code="no_places")
    if not isinstance(value.get("preset", ""), str):
        raise ValidationError("'preset' must be a name.", code="bad_preset")
    places: dict[object, object] = value["places"]
    if not places:
        raise ValidationError("'places' lists no seat count.", code="no_places")
    for key, points in places.items():
        if not (isinstance(key, str) and key.isdigit() and 3 <= int(key) <= 5):
            raise ValidationError(f"Seat count {key!r} must be 3, 4 or 5.", code="bad_seats")
        if not isinstance(points, list) or len(points) != int(key):
            raise ValidationError(
                f"Seat count {key} needs exactly {key} points, one per place.", code="bad_length"
            )
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise ValidationError(f"Points for {key} seats must be integers.", code="bad_points")
        if any(later > earlier for earlier, later in itertools.pairwise(points)):
            raise ValidationError(
                f"Points for {key} seats must not increase from first place to last.",
                code="increasing",
            )
    if table_size is not None and str(table_size) not in places:
        raise ValidationError(
            f"The points table has no entry for tables of {table_size}.", code="missing_size"
        )
