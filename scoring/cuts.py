"""Cut lines (カットライン): who would advance from a stage on its confirmed results.

The stage's rule (top K per table, then top N by total) is applied by
`tournaments.advancement.select_advancing`, fed with the stage standings' *confirmed ranks*
(`Standing.confirmed_rank`: the configured tie-breaks — points net of deductions, 大富豪 count,
fouls, best set … — over confirmed results only), so a provisional result (暫定: finished, not
yet confirmed by a second official) can never move anyone across the line, and only a shared
confirmed rank can straddle it — which is reported, never decided silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.models import Standing
from scoring.standings import ScopeRef, recompute_scope, standings
from tournaments.advancement import AdvancementTie, Rule, preview_advancing, select_advancing
from tournaments.advancement_words import reason_words
from tournaments.models import Stage
from tournaments.points import tie_breaks
from tournaments.ranking import StageRanking
from tournaments.selectors import last_round_tables


@dataclass(frozen=True, slots=True)
class CutLine:
    stage_id: int
    rule: str
    advancing: frozenset[int] = frozenset()  # entry ids
    # Entry ids tied across the line (shared confirmed rank), and how many places they
    # contend for.
    tied: tuple[int, ...] = ()
    places_left: int = 0
    # The last confirmed rank inside the cut when the rule is a plain top N.
    line_after_rank: int | None = None
    # The entry under whose row the boards draw the line: the last one advancing, when those
    # advancing are exactly the first rows of the board (provisional results can order the
    # board otherwise; then no line is drawn, the advancing rows are marked).
    line_after_entry: int | None = None
    # Results the cut does not count yet (the stage's provisional games, summed per entrant).
    provisional_games: int = 0
    reasons: dict[int, str] = field(default_factory=dict)

    @property
    def has_rule(self) -> bool:
        return bool(self.rule) and self.rule != "—"


def cut_line(stage: Stage, rows: list[Standing] | None = None) -> CutLine:
    """The stage's cut on its confirmed results (see the module docstring); `rows` are the
    stage's standings in board order (rank), as `scoring.standings.standings` gives them."""
    if not (stage.advance_top_n or stage.advance_top_k_per_table):
        return CutLine(stage.pk, "—")
    if rows is None:
        rows = standings(ScopeRef.stage(stage.pk))
    if not rows:
        return CutLine(stage.pk, stage.advancement_label)
    provisional = sum(row.provisional_games for row in rows)
    by_rank = _rank_keys(rows)
    rule = Rule(top_n=stage.advance_top_n, top_k_per_table=stage.advance_top_k_per_table)
    tables = last_round_tables(stage) if stage.advance_top_k_per_table else None
    try:
        outcome = select_advancing(by_rank, rule, tables=tables or None)
    except AdvancementTie as tie:
        return CutLine(
            stage.pk,
            stage.advancement_label,
            tied=tie.tied,
            places_left=tie.places_left,
            provisional_games=provisional,
        )
    except ValueError:  # top K per table before any round is drawn
        return CutLine(stage.pk, stage.advancement_label, provisional_games=provisional)
    advancing = frozenset(outcome.advancing)
    line = line_entry = None
    if not stage.advance_top_k_per_table and advancing:
        line = max(row.confirmed_rank for row in rows if row.entry_id in advancing)
        first = rows[: len(advancing)]
        if {row.entry_id for row in first} == advancing:
            line_entry = first[-1].entry_id
    reasons = {entry: reason_words(reason) for entry, reason in outcome.reasons.items()}
    return CutLine(
        stage.pk,
        stage.advancement_label,
        advancing,
        line_after_rank=line,
        line_after_entry=line_entry,
        provisional_games=provisional,
        reasons=reasons,
    )


def cut_statuses(stage: Stage, rows: list[Standing]) -> dict[int, str]:
    """Where each entrant of `rows` (the stage's standings) stands at its cut, by the same rule
    and confirmed ranks as `cut_line`: "in", "tied" (a shared confirmed rank straddles the
    line) or "out" — every tie listed (`preview_advancing`), none decided. Empty when the
    stage has no cut rule, or its per-table rule has no round drawn yet."""
    if not (stage.advance_top_n or stage.advance_top_k_per_table):
        return {}
    keys = _rank_keys(rows)
    rule = Rule(top_n=stage.advance_top_n, top_k_per_table=stage.advance_top_k_per_table)
    tables = last_round_tables(stage) if stage.advance_top_k_per_table else None
    try:
        preview = preview_advancing(keys, rule, tables=tables or None)
    except ValueError:  # top K per table before any round is drawn
        return {}
    return {entry: preview.status(entry) for entry in keys}


def _rank_keys(rows: list[Standing]) -> dict[int, float]:
    """Negated confirmed rank as the "total" advancement cuts on: equal confirmed ranks (equal
    on every tie-break key over confirmed results) stay tied."""
    return {row.entry_id: float(-row.confirmed_rank) for row in rows if row.entry_id is not None}


def stage_ranking(stage: Stage) -> StageRanking:
    """The ranking `tournaments.ranking` asks for: the stage's standings, recomputed now (the
    organiser is about to cut on them), ranked by the tournament's tie-breaks over confirmed
    results only; the points shown are the confirmed points (net of deductions)."""
    ref = ScopeRef.stage(stage.pk)
    recompute_scope(ref)
    rows = standings(ref)
    return StageRanking(
        keys=_rank_keys(rows),
        points={row.entry_id: row.confirmed_points for row in rows if row.entry_id is not None},
        basis=_("standings, confirmed results only: %(keys)s")
        % {"keys": " → ".join(tie_breaks(stage.tournament.points_table))},
    )
