"""Signal receivers, connected in `ScoringConfig.ready()`: games and tournaments never import
scoring; they announce, after commit, what changed.

- `games.live.results_changed` (a game's results written or removed): recompute the
  tournament's standings (`scoring.tasks.request_standings_update`: recomputes coalesce, one
  queued and one running per tournament), post `game.finished`;
- `tournaments.signals.penalties_changed` (a penalty given or withdrawn): recompute;
- `tournaments.signals.round_status_changed` (a round published, in play, complete, revealed,
  closed): recompute, so the boards (whose version covers the scope's rounds) say so;
- `games.live.game_confirmed` (a result stops being provisional): recompute —
  `provisional_games`, `confirmed_points` and the cut change;
- `standings_changed`: post `standings.changed`; `stage_advanced`: post `stage.cut`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from games.live import game_confirmed, results_changed
from games.models import Game
from scoring import webhooks
from scoring.models import Scope, WebhookEvent
from scoring.standings import ScopeRef, standings_changed
from tournaments.models import Round, Stage, Tournament
from tournaments.signals import (
    penalties_changed,
    round_status_changed,
    stage_advanced,
    tournament_settings_changed,
)


def _enqueue_update(tournament_id: int, *, rescore: bool = False) -> None:
    # Imported here: the tasks module pulls in the recompute machinery, not needed at start-up.
    from scoring.tasks import request_standings_update

    # The signals are sent after commit, so the run sees the results; coalesced per tournament.
    request_standings_update(tournament_id, rescore=rescore)


def _rated(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id, rated=True).exists()


def _enqueue_ratings() -> None:
    from scoring.services import request_ratings_update

    with transaction.atomic():
        request_ratings_update()


def on_results_changed(sender: Any, game_id: int, tournament_id: int, **kwargs: Any) -> None:
    _enqueue_update(tournament_id)
    settled = Game.objects.filter(pk=game_id, table__round__status__in=Round.SETTLED).exists()
    if settled and _rated(tournament_id):
        # A correction (or a void) in a settled round: the ratings replay it as it now is.
        _enqueue_ratings()
    with transaction.atomic():
        webhooks.emit(
            tournament_id,
            WebhookEvent.GAME_FINISHED,
            partial(webhooks.game_finished_data, game_id),
        )


def on_penalties_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    _enqueue_update(tournament_id)


def on_round_status_changed(sender: Any, round_id: int, **kwargs: Any) -> None:
    """The boards list the scope's rounds with their status (and a settled round's games
    count as final): recompute, which bumps the version when anything shown changed."""
    round_ = Round.objects.select_related("stage").get(pk=round_id)
    _enqueue_update(int(round_.stage.tournament_id))
    if round_.is_settled and _rated(round_.stage.tournament_id):
        # Its games now count towards the ratings (the recompute estimates their deals). A
        # round completed, then revealed, then closed asks three times: the estimates are
        # kept and the replay converges, so the later asks cost a recompute and change nothing.
        _enqueue_ratings()


def on_game_confirmed(sender: Any, game_id: int, tournament_id: int, **kwargs: Any) -> None:
    """A confirmed result is no longer provisional: `provisional_games`, `confirmed_points`
    and the cut change."""
    _enqueue_update(tournament_id)


def on_standings_changed(sender: Any, ref: ScopeRef, version: int, **kwargs: Any) -> None:
    if ref.kind == Scope.SEASON:
        return  # seasons span tournaments; endpoints belong to one tournament
    if ref.kind == Scope.TOURNAMENT:
        tournament_id = ref.id
    else:
        tournament_id = Stage.objects.values_list("tournament_id", flat=True).get(pk=ref.id)

    def data() -> dict[str, Any]:
        tournament = Tournament.objects.get(pk=tournament_id)
        return webhooks.standings_changed_data(ref, tournament, version)

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


def on_tournament_settings_changed(
    sender: Any, tournament_id: int, rescore: bool = False, **kwargs: Any
) -> None:
    """An organiser changed the settings: with `rescore` (the points table changed after games
    were played) every result's points are re-derived, then every standing is recomputed."""
    _enqueue_update(tournament_id, rescore=rescore)
    settled = Round.objects.filter(stage__tournament_id=tournament_id, status__in=Round.SETTLED)
    if settled.exists():
        # `rated` may have been toggled, or the points table changed: replay the ratings.
        _enqueue_ratings()


def connect() -> None:
    results_changed.connect(on_results_changed, dispatch_uid="scoring.results_changed")
    penalties_changed.connect(on_penalties_changed, dispatch_uid="scoring.penalties_changed")
    round_status_changed.connect(on_round_status_changed, dispatch_uid="scoring.round_status")
    game_confirmed.connect(on_game_confirmed, dispatch_uid="scoring.game_confirmed")
    standings_changed.connect(on_standings_changed, dispatch_uid="scoring.standings_changed")
    stage_advanced.connect(on_stage_advanced, dispatch_uid="scoring.stage_advanced")
    tournament_settings_changed.connect(
        on_tournament_settings_changed, dispatch_uid="scoring.tournament_settings_changed"
    )
