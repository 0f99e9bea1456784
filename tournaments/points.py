"""Points tables (順位点): how many points each finishing place scores, per table size.

Stored on `Tournament.points_table` as JSON, e.g.
``{"preset": "3-2-1-0", "places": {"3": [2, 1, 0], "4": [3, 2, 1, 0], "5": [4, 3, 2, 1, 0]}}``:
one list per seat count a table of the tournament can have, first place first. The JDF's own
points per title were not found (REFERENCE §1.2), so the `jdf` ruleset ships no points: the
organiser picks one of these clearly non-JDF presets or enters a table (`"preset": "custom"`).

Optional keys (scoring, issue #7):

- ``"last_game_bonus": {"1": 20}`` — extra points by place in the last game of a set (the
  video-game tournaments' "70 for 大富豪 in the last game" is 50 + 20);
- ``"tie_breaks": ["points", "daifugo", …]`` — the ranking order after total points
  (`TIE_BREAK_KEYS`; default `DEFAULT_TIE_BREAKS`, REFERENCE §1.2 [R]); entrants equal on every
  key share a rank.

`points_for` is the one function that turns a placing into points: `games.services._finish`
writes `GameResult.points` with it and `scoring` re-derives them with it after a table change.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.rulesets import service_families
from tournaments.seating import SeatingError, policy_table_sizes

# preset -> (label people read, translated when shown; places for 3, 4 and 5 seats)
PRESETS: Mapping[str, tuple[str | Promise, Mapping[int, list[int]]]] = {
    "3-2-1-0": (
        _("3-2-1-0: one point per player out after you (pagat President; not JDF)"),
        {3: [2, 1, 0], 4: [3, 2, 1, 0], 5: [4, 3, 2, 1, 0]},
    ),
    "plus2-minus2": (
        _("+2 / +1 / −1 / −2 (JDF-based apps; a 5-player Commoner scores 0; not JDF)"),
        {3: [1, 0, -1], 4: [2, 1, -1, -2], 5: [2, 1, 0, -1, -2]},
    ),
    "5-4-3-2-1": (
        _("5-4-3-2-1 (UECda style; not JDF)"),
        {3: [3, 2, 1], 4: [4, 3, 2, 1], 5: [5, 4, 3, 2, 1]},
    ),
    "50-30-20-10-last70": (
        _(
            "50 / 30 / 20 / 10, 70 for the Grand millionaire in the last game of a set "
            "(video-game tournaments; not JDF)"
        ),
        {3: [50, 30, 10], 4: [50, 30, 20, 10], 5: [50, 30, 20, 15, 10]},
    ),
}
# preset -> extra points by place (1-based) in the last game of a set.
PRESET_BONUSES: Mapping[str, Mapping[int, int]] = {"50-30-20-10-last70": {1: 20}}
DEFAULT_PRESET = "3-2-1-0"
CUSTOM_PRESET = "custom"


@dataclass(frozen=True, slots=True)
class MetricWords:
    """What people read for one of a family's metrics: the board's column head, the
    tie-break its `Metric.tie_break` key names ("more …" or "fewer …"), and the CSV export's
    column (the key itself in English, as in the JSON export)."""

    head: str | Promise
    tie_break: str | Promise
    csv: str | Promise


# The titles' words, for the families that title places by 大富豪's five titles.
TITLE_WORDS: Mapping[str, MetricWords] = {
    "daifugo": MetricWords(
        _("Grand millionaire"),
        _("more Grand millionaire titles"),
        pgettext_lazy("CSV column", "daifugo"),
    ),
    "fugo": MetricWords(
        _("Millionaire"), _("more Millionaire titles"), pgettext_lazy("CSV column", "fugo")
    ),
    "heimin": MetricWords(
        _("Commoner"), _("more Commoner titles"), pgettext_lazy("CSV column", "heimin")
    ),
    "hinmin": MetricWords(_("Poor"), _("more Poor titles"), pgettext_lazy("CSV column", "hinmin")),
    "daihinmin": MetricWords(
        _("Extreme poor"),
        _("fewer Extreme poor titles"),
        pgettext_lazy("CSV column", "daihinmin"),
    ),
}

# Each game family's metrics (`Family.metrics`, counted over its results' `detail`), in
# words. The keys come from the family; a metric missing here reads as its key (a test keeps
# every registered family's metrics worded).
METRIC_WORDS: Mapping[str, Mapping[str, MetricWords]] = {
    "daifugo": {
        **TITLE_WORDS,
        "fouls": MetricWords(
            _("Fouls"), _("fewer foul finishes"), pgettext_lazy("CSV column", "fouls")
        ),
        "miyako_ochi": MetricWords(
            _("Miyako-ochi"),
            _("fewer miyako-ochi (Grand millionaire demoted)"),
            pgettext_lazy("CSV column", "miyako_ochi"),
        ),
    },
    # 掼蛋 Guandan: matches won by winning at A (过A), and levels (级) gained by winning hands.
    "guandan": {
        "matches_won": MetricWords(
            _("Matches won at A"),
            _("more matches won at A"),
            pgettext_lazy("CSV column", "matches_won"),
        ),
        "level_gain": MetricWords(
            _("Levels gained"),
            _("more levels gained"),
            pgettext_lazy("CSV column", "level_gain"),
        ),
    },
    # 大財閥 Daizaibatsu: 大富豪's titles, and the games that ended because the 山札 ran out
    # (rule 24).
    "daizaibatsu": {
        **TITLE_WORDS,
        "forced_ends": MetricWords(
            _("Forced ends"),
            _("fewer games ended by an empty 山札"),
            pgettext_lazy("CSV column", "forced_ends"),
        ),
    },
}


def metric_words(key: str) -> MetricWords:
    """A metric's words, from the first family that words the key (else the key itself)."""
    for words in METRIC_WORDS.values():
        if key in words:
            return words[key]
    return MetricWords(key, key, key)


def _tie_break_keys() -> dict[str, str | Promise]:
    keys: dict[str, str | Promise] = {"points": _("total points")}
    for name, family in service_families().items():
        for metric in family.metrics:
            words = METRIC_WORDS.get(name, {}).get(metric.key)
            keys.setdefault(metric.tie_break, words.tie_break if words else metric.tie_break)
    keys["best_set"] = _("best single set")
    return keys


# Ranking keys after which entrants are compared, best first: total points, the metric
# tie-breaks of each family the service runs ("fewer_…" keys prefer the lower count; the title
# counts prefer more of the better titles: countback, REFERENCE §1.2 [R]), the best set. The
# labels people read are translated when shown.
TIE_BREAK_KEYS: Mapping[str, str | Promise] = _tie_break_keys()
DEFAULT_TIE_BREAKS: tuple[str, ...] = (
    "points",
    "daifugo",
    "fugo",
    "heimin",
    "hinmin",
    "fewer_fouls",
    "best_set",
)


def points_for(
    table: Mapping[str, Any], *, place: int, seats: int, game_number: int, games_per_set: int
) -> int:
    """The points of finishing `place` (1-based) at a table of `seats` in game `game_number`.

    >>> t = preset_points_table("50-30-20-10-last70")
    >>> points_for(t, place=1, seats=4, game_number=3, games_per_set=4)
    50
    >>> points_for(t, place=1, seats=4, game_number=4, games_per_set=4)
    70
    """
    points = int(table["places"][str(seats)][place - 1])
    if game_number == games_per_set:
        points += int(table.get("last_game_bonus", {}).get(str(place), 0))
    return points


def tie_breaks(table: Mapping[str, Any]) -> tuple[str, ...]:
    """The configured ranking keys, always starting with total points."""
    keys = tuple(table.get("tie_breaks") or DEFAULT_TIE_BREAKS)
    return keys if keys[:1] == ("points",) else ("points", *keys)


def preset_points_table(preset: str) -> dict[str, Any]:
    """The JSON value of a points-table preset."""
    if preset not in PRESETS:
        raise ValidationError(f"Unknown points preset {preset!r}.", code="unknown_preset")
    _label, places = PRESETS[preset]
    value: dict[str, Any] = {
        "preset": preset,
        "places": {str(n): list(p) for n, p in places.items()},
    }
    if preset in PRESET_BONUSES:
        value["last_game_bonus"] = {str(k): v for k, v in PRESET_BONUSES[preset].items()}
    return value


def custom_points_table(
    places: Mapping[int, Sequence[int]],
    *,
    last_game_bonus: Mapping[int, int] | None = None,
    tie_break_keys: Sequence[str] | None = None,
) -> dict[str, Any]:
    """An organiser-defined table (validated), labelled ``custom``."""
    value: dict[str, Any] = {
        "preset": CUSTOM_PRESET,
        "places": {str(n): list(p) for n, p in places.items()},
    }
    if last_game_bonus:
        value["last_game_bonus"] = {str(k): v for k, v in last_game_bonus.items()}
    if tie_break_keys:
        value["tie_breaks"] = list(tie_break_keys)
    validate_points_table(value)
    return value


def preset_choices() -> list[tuple[str, str]]:
    return [(key, str(label)) for key, (label, _places) in PRESETS.items()]


def validate_points_table(
    value: object, table_size: int | None = None, uneven_tables: str | None = None
) -> None:
    """Raise `ValidationError` unless `value` is a well-formed points table.

    Every list must have one entry per seat, be integers and never increase (a better place
    never scores less); `table_size` must be covered and, given the tournament's uneven-tables
    policy, every table size that policy can produce (`seating.policy_table_sizes`: tables of
    `table_size - 1` under ``short``, of `table_size + 1` — and of `table_size - 1` when the
    field is too small for them — under ``long``, only full tables under ``byes``).
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
    bonus = value.get("last_game_bonus", {})
    if not isinstance(bonus, dict) or not all(
        isinstance(k, str) and k.isdigit() and 1 <= int(k) <= 5 and type(v) is int
        for k, v in bonus.items()
    ):
        raise ValidationError(
            "'last_game_bonus' maps places 1–5 to integer extra points.", code="bad_bonus"
        )
    keys = value.get("tie_breaks", [])
    if not isinstance(keys, list) or not all(k in TIE_BREAK_KEYS for k in keys):
        raise ValidationError(
            f"'tie_breaks' lists keys among {', '.join(TIE_BREAK_KEYS)}.", code="bad_tie_breaks"
        )
    if len(set(keys)) != len(keys):
        raise ValidationError("'tie_breaks' repeats a key.", code="bad_tie_breaks")
    if table_size is not None and str(table_size) not in places:
        raise ValidationError(
            f"The points table has no entry for tables of {table_size}.", code="missing_size"
        )
    if table_size is not None and uneven_tables is not None:
        try:
            needed = policy_table_sizes(table_size, uneven_tables)
        except SeatingError as error:
            raise ValidationError(str(error), code="bad_policy") from error
        missing = [n for n in needed if str(n) not in places]
        if missing:
            sizes = " and ".join(str(n) for n in missing)
            raise ValidationError(
                f"The points table has no entry for tables of {sizes}, which the "
                f"{uneven_tables!r} policy for uneven fields can produce at tables of "
                f"{table_size}. 卓の人数（{sizes}人）の順位点がありません。",
                code="missing_size",
            )
