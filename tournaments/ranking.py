"""How a stage's entrants rank for advancement: the question tournaments asks, which scoring
answers.

Tournaments never imports scoring (scoring builds on tournaments), so scoring registers its
answer when the app is ready, as it connects its signal receivers: standings ranked by the
tournament's tie-breaks (points, titles, fouls, best set) over confirmed results only. Without
it — tournaments alone — entrants rank by their total confirmed points, net of deductions.

Either way advancement counts *confirmed* results (a game confirmed by a second official, or
ended by a forfeit): a provisional result (暫定) never moves anyone across a cut line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.db.models import Q, Sum
from django.utils.translation import gettext

from tournaments.models import Entry, Penalty, Round, Stage
from tournaments.selectors import stage_bye_points, stage_participants


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
    totals = confirmed_stage_totals(stage)
    return StageRanking(
        keys={entry: float(points) for entry, points in totals.items()},
        points=totals,
        basis=gettext("total confirmed points (net of deductions)"),
    )


def confirmed_stage_totals(stage: Stage) -> dict[int, int]:
    """Confirmed points per entry id in `stage` (with earlier stages if it carries totals
    over), minus the active deductions given in those stages' rounds; every participant
    appears, 0 without results.

    Like `selectors.stage_totals`, by string lookups (tournaments never imports games): a
    result is confirmed when its game is confirmed or ended by a forfeit."""
    stages = Q(stage=stage)
    if stage.carry_over_totals:
        stages |= Q(stage__tournament=stage.tournament, stage__order__lt=stage.order) & ~Q(
            stage__kind=Stage.Kind.PLAYOFF  # a playoff only orders tied entrants
        )
    rounds = Round.objects.filter(stages).values("pk")
    totals = {entry.pk: 0 for entry in stage_participants(stage)}
    counted = Q(game_results__game__table__round__in=rounds) & (
        Q(game_results__game__status="confirmed")
        | Q(game_results__game__forfeit_seat__isnull=False)
    )
    summed = (
        Entry.objects.filter(tournament=stage.tournament)
        .annotate(total=Sum("game_results__points", filter=counted))
        .filter(total__isnull=False)
        .values_list("pk", "total")
    )
    for entry_id, total in summed:
        totals[entry_id] = int(total)
    deductions = (
        Penalty.objects.filter(
            Q(round__in=rounds) | Q(round__isnull=True, game__table__round__in=rounds),
            tournament=stage.tournament,
            kind=Penalty.Kind.DEDUCTION,
            withdrawn_at__isnull=True,
        )
        .values("entry_id")
        .annotate(points=Sum("points"))
        .values_list("entry_id", "points")
    )
    for entry_id, points in deductions:
        totals[entry_id] = totals.get(entry_id, 0) - int(points)
    for entry_id, points in stage_bye_points(stage).items():  # a bye is ruled at the draw
        totals[entry_id] = totals.get(entry_id, 0) + points
    return totals
