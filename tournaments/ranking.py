"""How a stage's entrants rank for advancement: the question tournaments asks, which scoring
answers.

Tournaments never imports scoring (scoring builds on tournaments), so scoring registers its
answer when the app is ready, as it connects its signal receivers: standings ranked by the
tournament's tie-breaks (points, titles, fouls, best set). Without it — tournaments alone —
entrants rank by their total points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tournaments.models import Stage
from tournaments.selectors import stage_totals


@dataclass(frozen=True, slots=True)
class StageRanking:
    """`keys`: higher is better, equal means tied on every tie-break (what `advance_stage`
    cuts on); `points`: total points to show; `basis`: how the keys were made, for organisers.
    """

    keys: Mapping[int, float]
    points: Mapping[int, int]
    basis: str


Provider = Callable[[Stage], StageRanking]
_provider: Provider | None = None


def register_stage_ranking(provider: Provider | None) -> None:
    global _provider  # one process-wide answer, set once at start-up
    _provider = provider


def stage_ranking(stage: Stage) -> StageRanking:
    if _provider is not None:
        return _provider(stage)
    totals = stage_totals(stage)
    return StageRanking(
        keys={entry: float(points) for entry, points in totals.items()},
        points=totals,
        basis="total points",
    )
