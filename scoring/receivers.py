"""Signal receivers, connected in `ScoringConfig.ready()`: games and tournaments never import
scoring; they announce, after commit, what changed."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from games.live import results_changed
from scoring import webhooks
from scoring.exports import standing_dict
from scoring.models import Scope, WebhookEvent
from scoring.standings import ScopeRef, standings, standings_changed
from tournaments.models import Stage
from tournaments.signals import stage_advanced

log = logging.getLogger(__name__)


def _enqueue_update(tournament_id: int) -> None:
    from scoring.tasks import update_standings

    try:
        # The signal is sent after commit, so the worker sees the results; eager in dev.
        update_standings.delay(tournament_id)
    except Exception:
        # Broker down: the results are committed, the periodic full recompute catches up.
        log.exception("could not enqueue update_standings(%s)", tournament_id)


def on_results_changed(sender: Any, game_id: int, tournament_id: int, **kwargs: Any) -> None:
    _enqueue_update(tournament_id)
    with transaction.atomic():
        webhooks.emit(
            tournament_id,
            WebhookEvent.GAME_FINISHED,
            partial(webhooks.game_finished_data, game_id),
        )


def on_standings_changed(sender: Any, ref: ScopeRef, version: int, **kwargs: Any) -> None:
    if ref.kind == Scope.SEASON:
        return  # seasons span tournaments; endpoints belong to one tournament
    if ref.kind == Scope.TOURNAMENT:
        tournament_id = ref.id
    else:
        tournament_id = Stage.objects.values_list("tournament_id", flat=True).get(pk=ref.id)

    def data() -> dict[str, Any]:
        return {
            "scope": {"kind": ref.kind, "id": ref.id},
            "version": version,
            "standings": [standing_dict(row) for row in standings(ref)],
        }

    with transaction.atomic():
        webhooks.emit(tournament_id, WebhookEvent.STANDINGS_CHANGED, data)


def on_stage_advanced(
    sender: Any, stage_id: int, target_stage_id: int, advancing: list[int], **kwargs: Any
) -> None:
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)

    def data() -> dict[str, Any]:
        target = Stage.objects.get(pk=target_stage_id)
        numbers = dict(stage.tournament.entries.values_list("pk", "number"))
        return {
            "tournament": stage.tournament.slug,
            "stage": {"id": stage.pk, "name": stage.name},
            "next_stage": {"id": target.pk, "name": target.name},
            "advancing": [numbers[pk] for pk in advancing if pk in numbers],
        }

    with transaction.atomic():
        webhooks.emit(stage.tournament_id, WebhookEvent.STAGE_CUT, data)
    _enqueue_update(stage.tournament_id)


def connect() -> None:
    results_changed.connect(on_results_changed, dispatch_uid="scoring.results_changed")
    standings_changed.connect(on_standings_changed, dispatch_uid="scoring.standings_changed")
    stage_advanced.connect(on_stage_advanced, dispatch_uid="scoring.stage_advanced")
