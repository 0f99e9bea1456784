"""Cut lines (カットライン): who would advance from a stage on its current standings.

The stage's rule (top K per table, then top N by total) is applied by
`tournaments.advancement.select_advancing`, fed with the *ranks* of the stage's standings, so
the configured tie-breaks (大富豪 count, fouls, best set …) order the entrants and only a
shared rank can straddle the line — which is reported, never decided silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.models import Standing
from scoring.standings import ScopeRef, recompute_scope, standings
from tournaments.advancement import AdvancementTie, Rule, select_advancing
from tournaments.models import Stage
from tournaments.points import tie_breaks
from tournaments.ranking import StageRanking
from tournaments.selectors import last_round_tables


@dataclass(frozen=True, slots=True)
class CutLine:
    stage_id: int
    rule: str
    advancing: frozenset[int] = frozenset()  # entry ids
    # Entry ids tied across the line (shared rank), and how many places they contend for.
    tied: tuple[int, ...] = ()
    places_left: int = 0
    # The last rank inside the cut when the rule is a plain top N (for drawing the line).
    line_after_rank: int | None = None
    reasons: dict[int, str] = field(default_factory=dict)

    @property
    def has_rule(self) -> bool:
        return bool(self.rule) and self.rule != "—"


def cut_line(stage: Stage, rows: list[Standing] | None = None) -> CutLine:
    """The stage's cut on its current standings (see the module docstring)."""
    if not (stage.advance_top_n or stage.advance_top_k_per_table):
        return CutLine(stage.pk, "—")
    if rows is None:
        rows = standings(ScopeRef.stage(stage.pk))
    if not rows:
        return CutLine(stage.pk, stage.advancement_label)
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
        )
    except ValueError:  # top K per table before any round is drawn
        return CutLine(stage.pk, stage.advancement_label)
    advancing = frozenset(outcome.advancing)
    line = None
    if not stage.advance_top_k_per_table and advancing:
        line = max(row.rank for row in rows if row.entry_id in advancing)
    reasons = {entry: reason.split(" (total")[0] for entry, reason in outcome.reasons.items()}
    return CutLine(
        stage.pk, stage.advancement_label, advancing, line_after_rank=line, reasons=reasons
    )


def _rank_keys(rows: list[Standing]) -> dict[int, float]:
    """Negated rank as the "total" advancement cuts on: equal ranks (equal on every tie-break
    key) stay tied."""
    return {row.entry_id: float(-row.rank) for row in rows if row.entry_id is not None}


def stage_ranking(stage: Stage) -> StageRanking:
    """The ranking `tournaments.ranking` asks for: the stage's standings, recomputed now (the
    organiser is about to cut on them), ranked by the tournament's tie-breaks."""
    ref = ScopeRef.stage(stage.pk)
    recompute_scope(ref)
    rows = standings(ref)
    return StageRanking(
        keys=_rank_keys(rows),
        points={row.entry_id: row.points for row in rows if row.entry_id is not None},
        basis="standings: " + " → ".join(tie_breaks(stage.tournament.points_table)),
    )
