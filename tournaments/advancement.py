"""Who advances from a stage to the next (勝ち上がり): pure functions, no Django.

Rules (a stage may combine them):

- **top K per table**: the best `k` of each table of the stage's last round qualify first
  (JDF 2012: LAST16 took the top 2 of each table);
- **top N by total points**: places are then filled, best total first, until `n` entrants have
  advanced (when only this rule is set: the top `n` overall, as in JDF's "best score" cuts);
- **seeded entrants** (e.g. previous finalists) join the next stage on top of those, outside
  this computation.

Ties are never broken silently. Entrants with equal totals are ordered by `tie_break`, an
explicit list of entry ids the organiser supplies (from the tie-break metrics of REFERENCE §1.2
once scoring has them, or from a playoff or a draw by lot). If a tie straddles a cut line and
`tie_break` does not order the tied entrants, `AdvancementTie` is raised naming them; nothing
is decided by entry number or database order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


class AdvancementTie(ValueError):
    """Entrants tied across a cut line; the organiser must order them (playoff or lot)."""

    def __init__(self, tied: Sequence[int], places_left: int, where: str) -> None:
        self.tied = tuple(tied)
        self.places_left = places_left
        super().__init__(
            f"{len(self.tied)} entrants tie for {places_left} place(s) {where}: "
            f"{', '.join(str(t) for t in self.tied)}; give a tie-break order (playoff or lot)."
        )


@dataclass(frozen=True, slots=True)
class Rule:
    top_n: int | None = None
    top_k_per_table: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    advancing: tuple[int, ...]  # in qualifying order
    reasons: Mapping[int, str]


def _rank_key(
    totals: Mapping[int, float], tie_break: Sequence[int]
) -> Callable[[int], tuple[float, int]]:
    order = {entry: index for index, entry in enumerate(tie_break)}

    def key(entry: int) -> tuple[float, int]:
        # Unordered entrants share the last tie-break position, so they stay tied.
        return (-totals[entry], order.get(entry, len(order)))

    return key


def _take(
    candidates: Sequence[int],
    places: int,
    totals: Mapping[int, float],
    tie_break: Sequence[int],
    where: str,
) -> list[int]:
    """The best `places` of `candidates`, refusing to split an unresolved tie."""
    if places <= 0:
        return []
    key = _rank_key(totals, tie_break)
    ranked = sorted(candidates, key=key)
    if len(ranked) <= places:
        return ranked
    last_in, first_out = ranked[places - 1], ranked[places]
    if key(last_in) == key(first_out):
        tied = [c for c in ranked if key(c) == key(last_in)]
        left = places - sum(1 for c in ranked[:places] if key(c) != key(last_in))
        raise AdvancementTie(sorted(tied), left, where)
    return ranked[:places]


def select_advancing(
    totals: Mapping[int, float],
    rule: Rule,
    tables: Mapping[int, Sequence[int]] | None = None,
    tie_break: Sequence[int] = (),
) -> Outcome:
    """The entrants (ids of `totals`) who advance under `rule`; see the module docstring."""
    advancing: list[int] = []
    reasons: dict[int, str] = {}
    if rule.top_k_per_table:
        if not tables:
            raise ValueError("top K per table needs the stage's last-round tables")
        for number, members in sorted(tables.items()):
            present = [m for m in members if m in totals]
            for entry in _take(
                present, rule.top_k_per_table, totals, tie_break, f"at table {number}"
            ):
                advancing.append(entry)
                reasons[entry] = (
                    f"top {rule.top_k_per_table} at table {number} (total {totals[entry]:g})"
                )
    if rule.top_n:
        rest = [e for e in totals if e not in reasons]
        for entry in _take(rest, rule.top_n - len(advancing), totals, tie_break, "at the cut line"):
            advancing.append(entry)
            reasons[entry] = f"top {rule.top_n} by total points (total {totals[entry]:g})"
    return Outcome(tuple(advancing), reasons)
