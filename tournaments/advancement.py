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
once scoring has them, or from a playoff or a draw by lot). An item of `tie_break` may also be
a group of entry ids that stay tied with each other (a playoff that itself ended level: see
`playoff_tie_break`). If a tie straddles a cut line and `tie_break` does not order the tied
entrants, `AdvancementTie` is raised naming them; nothing is decided by entry number or
database order.

A playoff (順位決定戦) is a table of the tied entrants only; its placings — by playoff points,
then the tournament's tie-break keys, i.e. the playoff stage's own ranking — become the
`tie_break` order (`playoff_tie_break`). Entrants still level after the playoff stay tied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Where:
    """Where entrants tie: at a table (its top K), at the cut line (top N), or for a final
    place. Pages say it in their language; `str()` is the API's and the records' English."""

    table: int | None = None
    place: int | None = None

    def __str__(self) -> str:
        if self.table is not None:
            return f"at table {self.table}"
        if self.place is not None:
            return f"for place {self.place}"
        return "at the cut line"


CUT_LINE = Where()


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an entrant advances: one of the top `top` of table `table`, or, with no table, of
    the whole stage by total points. `str()` is the English kept with the advancement."""

    top: int
    total: float
    table: int | None = None

    def __str__(self) -> str:
        where = f"at table {self.table}" if self.table is not None else "by total points"
        return f"top {self.top} {where} (total {self.total:g})"


class AdvancementTie(ValueError):
    """Entrants tied across a cut line; the organiser must order them (playoff or lot)."""

    def __init__(self, tied: Sequence[int], places_left: int, where: Where) -> None:
        self.tied = tuple(tied)
        self.places_left = places_left
        self.where = where
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
    reasons: Mapping[int, Reason]


TieBreak = Sequence[int | Sequence[int]]


def _positions(tie_break: TieBreak) -> dict[int, int]:
    """Entry id → tie-break position; the members of a group share one position."""
    order: dict[int, int] = {}
    for index, item in enumerate(tie_break):
        for entry in [item] if isinstance(item, int) else item:
            order.setdefault(entry, index)
    return order


def playoff_tie_break(keys: Mapping[int, float]) -> list[tuple[int, ...]]:
    """A playoff's ranking keys (higher is better, equal means level on every tie-break) as a
    tie-break order: groups best first, entrants level in the playoff grouped together.

    >>> playoff_tie_break({7: 3.0, 4: 9.0, 5: 3.0})
    [(4,), (5, 7)]
    """
    groups: dict[float, list[int]] = {}
    for entry, key in keys.items():
        groups.setdefault(key, []).append(entry)
    return [tuple(sorted(groups[key])) for key in sorted(groups, reverse=True)]


def _rank_key(
    totals: Mapping[int, float], tie_break: TieBreak
) -> Callable[[int], tuple[float, int]]:
    order = _positions(tie_break)

    def key(entry: int) -> tuple[float, int]:
        # Unordered entrants share the last tie-break position, so they stay tied.
        return (-totals[entry], order.get(entry, len(order)))

    return key


def _take(
    candidates: Sequence[int],
    places: int,
    totals: Mapping[int, float],
    tie_break: TieBreak,
    where: Where,
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
    tie_break: TieBreak = (),
) -> Outcome:
    """The entrants (ids of `totals`) who advance under `rule`; see the module docstring."""
    advancing: list[int] = []
    reasons: dict[int, Reason] = {}
    if rule.top_k_per_table:
        if not tables:
            raise ValueError("top K per table needs the stage's last-round tables")
        for number, members in sorted(tables.items()):
            present = [m for m in members if m in totals]
            for entry in _take(
                present, rule.top_k_per_table, totals, tie_break, Where(table=number)
            ):
                advancing.append(entry)
                reasons[entry] = Reason(rule.top_k_per_table, totals[entry], table=number)
    if rule.top_n:
        rest = [e for e in totals if e not in reasons]
        for entry in _take(rest, rule.top_n - len(advancing), totals, tie_break, CUT_LINE):
            advancing.append(entry)
            reasons[entry] = Reason(rule.top_n, totals[entry])
    return Outcome(tuple(advancing), reasons)


@dataclass(frozen=True, slots=True)
class Preview:
    """Who would advance now (`advancing`, in qualifying order) and the ties still to break:
    each tie is (the tied entry ids, the places they contend for, where). Tied entrants are
    listed in `advancing` only by a provisional order; `status` says "tied" for them."""

    advancing: tuple[int, ...]
    reasons: Mapping[int, Reason]
    ties: tuple[tuple[tuple[int, ...], int, Where], ...]

    def status(self, entry: int) -> str:
        if any(entry in tied for tied, _, _ in self.ties):
            return "tied"
        return "in" if entry in self.reasons else "out"


def _split(tie_break: TieBreak, tied: Sequence[int]) -> list[int | Sequence[int]]:
    """`tie_break` with the `tied` entries ordered provisionally (by id) where they stand."""
    split: list[int | Sequence[int]] = []
    placed: set[int] = set()
    for item in tie_break:
        members = [item] if isinstance(item, int) else list(item)
        inside = [m for m in members if m in tied]
        if inside and not isinstance(item, int):
            rest = tuple(m for m in members if m not in tied)
            split += sorted(inside)
            if rest:
                split.append(rest)
        else:
            split.append(item)
        placed.update(members)
    split += sorted(t for t in tied if t not in placed)
    return split


def preview_advancing(
    totals: Mapping[int, float],
    rule: Rule,
    tables: Mapping[int, Sequence[int]] | None = None,
    tie_break: TieBreak = (),
) -> Preview:
    """`select_advancing` for a preview: instead of stopping at the first tie across a cut
    line, note it and go on with the tied entrants in a provisional order, so the organiser
    sees every tie (and who is safely in or out) at once."""
    order: list[int | Sequence[int]] = list(tie_break)
    ties: list[tuple[tuple[int, ...], int, Where]] = []
    for _ in range(len(totals) + 1):
        try:
            outcome = select_advancing(totals, rule, tables=tables, tie_break=order)
        except AdvancementTie as tie:
            ties.append((tie.tied, tie.places_left, tie.where))
            order = _split(order, tie.tied)
            continue
        return Preview(outcome.advancing, outcome.reasons, tuple(ties))
    raise AssertionError("ties could not be listed")  # each pass orders one more tie
