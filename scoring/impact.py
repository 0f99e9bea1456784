"""What a ruling changes in the standings and at the cut, computed by the real standings code
(registered as `tournaments.impact`'s answer; see that module).

`ruling_impact(tournament, apply)` opens a savepoint, recomputes every scope the tournament
feeds (`tournament_scopes`: itself, its stages, its season) with `recompute_scope` and reads
them with `standings` — the boards as they are; then runs `apply`, the ruling's own write
(the same function that saves it), recomputes and reads them again — the boards as they would
be; and rolls the savepoint back. Nothing of it is kept: not the ruling's rows, not the
recomputed standings, not a version bump nor the outbox messages and webhooks a recompute
records (those commit with the transaction, or not at all). Whatever decides the ranks —
tie-breaks, playoffs, the tournament's final order — is the standings code's, so the preview
follows it.

The cut of a stage is compared with `scoring.cuts.cut_statuses` (the cut line's own rule over
confirmed ranks): every entrant whose place at the cut changes (in, tied, out) is listed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from scoring.cuts import cut_statuses
from scoring.models import Scope, Standing
from scoring.standings import ScopeRef, recompute_scope, standings, tournament_scopes
from tournaments.impact import (
    OUT,
    TIED,
    CutChange,
    CutMove,
    Impact,
    RankMove,
    ScopeImpact,
    Who,
)
from tournaments.models import Season, Stage, Tournament
from tournaments.selectors import next_stage

Key = tuple[int | None, int]  # (entry id, player id): a competitor of any scope


@dataclass(frozen=True, slots=True)
class _Board:
    ranks: dict[Key, int]
    who: dict[Key, Who]
    shared: Counter[int]
    cut: dict[int, str]  # entry id → in / tied / out (stages with a cut rule)

    def place(self, key: Key) -> tuple[int | None, bool]:
        rank = self.ranks.get(key)
        return rank, rank is not None and self.shared[rank] > 1


class _RolledBack(Exception):
    def __init__(self, before: list[_Board], after: list[_Board]) -> None:
        super().__init__("preview")
        self.before = before
        self.after = after


def _who(row: Standing) -> Who:
    entry = row.entry if row.entry_id is not None else None
    return Who(
        row.player_id, row.entry_id, row.player.display_name, entry.number if entry else None
    )


def _board(ref: ScopeRef, stage: Stage | None) -> _Board:
    recompute_scope(ref)
    rows = standings(ref)
    keys = {(r.entry_id, r.player_id): r for r in rows}
    return _Board(
        ranks={key: r.rank for key, r in keys.items()},
        who={key: _who(r) for key, r in keys.items()},
        shared=Counter(r.rank for r in rows),
        cut=cut_statuses(stage, rows) if stage is not None else {},
    )


def _rank_moves(before: _Board, after: _Board) -> tuple[RankMove, ...]:
    moves = []
    for key in before.ranks.keys() | after.ranks.keys():
        was, now = before.place(key), after.place(key)
        if was != now:
            who = after.who.get(key) or before.who[key]
            moves.append(RankMove(who, *was, *now))
    big = 1 << 30
    return tuple(
        sorted(moves, key=lambda m: (m.after or big, m.before or big, m.who.name, m.who.player_id))
    )


def _cut_change(stage: Stage, before: _Board, after: _Board) -> CutChange | None:
    if not (before.cut or after.cut):
        return None
    names = {w.entry_id: w for w in (*before.who.values(), *after.who.values())}
    moves = [
        CutMove(names[entry], before.cut.get(entry, OUT), after.cut.get(entry, OUT))
        for entry in sorted(
            before.cut.keys() | after.cut.keys(), key=lambda e: names[e].number or 0
        )
        if before.cut.get(entry, OUT) != after.cut.get(entry, OUT)
    ]
    if not moves:
        return None
    target = next_stage(stage) if stage.advanced_at is not None else None
    return CutChange(
        stage.pk,
        stage.name,
        stage.advancement_label,
        target.name if target is not None else "",
        tuple(moves),
        tuple(names[e] for e, status in after.cut.items() if status == TIED),
    )


def _label(ref: ScopeRef, tournament: Tournament, stages: dict[int, Stage]) -> str:
    if ref.kind == Scope.TOURNAMENT:
        return tournament.name
    if ref.kind == Scope.STAGE:
        return stages[ref.id].name
    return Season.objects.values_list("name", flat=True).get(pk=ref.id)


def ruling_impact(tournament: Tournament, apply: Callable[[], object]) -> Impact:
    """See the module docstring. Refusals `apply` raises propagate (nothing is written)."""
    refs = tournament_scopes(tournament)
    stages = {s.pk: s for s in Stage.objects.filter(tournament=tournament)}

    def boards() -> list[_Board]:
        return [
            _board(ref, stages.get(ref.id) if ref.kind == Scope.STAGE else None) for ref in refs
        ]

    try:
        with transaction.atomic():
            before = boards()
            apply()
            raise _RolledBack(before, boards())
    except _RolledBack as done:
        before, after = done.before, done.after
    scopes = []
    for ref, was, now in zip(refs, before, after, strict=True):
        stage = stages.get(ref.id) if ref.kind == Scope.STAGE else None
        moves = _rank_moves(was, now)
        cut = _cut_change(stage, was, now) if stage is not None else None
        if moves or cut is not None:
            scopes.append(
                ScopeImpact(ref.kind, ref.id, _label(ref, tournament, stages), moves, cut)
            )
    return Impact(tuple(scopes))
