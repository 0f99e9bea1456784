"""The full recompute with visible progress (`RecomputeRun`): every scope of every tournament
(or of one), one transaction per scope, progress written after each.

A run whose worker died stays `running`; the next run of the same reach marks it abandoned
once it has made no progress for `SCORING_RUN_STALE_SECONDS`. A redelivered task carrying its
`run_id` resumes the same row from the start — recomputing is idempotent, so redoing scopes a
dead worker had finished is harmless.
"""

from __future__ import annotations

import datetime
import logging
import time

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from scoring.models import RecomputeRun
from scoring.standings import ScopeRef, recompute_scope, rescore_results, tournament_scopes
from tournaments.models import Tournament

log = logging.getLogger(__name__)


def start_run(tournament_id: int | None = None) -> RecomputeRun:
    return RecomputeRun.objects.create(tournament_id=tournament_id)


def _abandon_stale(run: RecomputeRun) -> None:
    stale = timezone.now() - datetime.timedelta(seconds=settings.SCORING_RUN_STALE_SECONDS)
    reach = (
        Q(tournament__isnull=True)
        if run.tournament_id is None
        else Q(tournament_id=run.tournament_id)
    )
    RecomputeRun.objects.filter(
        reach, status=RecomputeRun.Status.RUNNING, updated_at__lt=stale
    ).exclude(pk=run.pk).update(status=RecomputeRun.Status.ABANDONED, finished_at=timezone.now())


def run_full_recompute(
    *, run_id: int | None = None, tournament_id: int | None = None, task_id: str = ""
) -> RecomputeRun:
    run = RecomputeRun.objects.filter(pk=run_id).first() if run_id is not None else None
    if run is None:
        run = start_run(tournament_id)
    _abandon_stale(run)
    tournaments = Tournament.objects.order_by("pk")
    if run.tournament_id is not None:
        tournaments = tournaments.filter(pk=run.tournament_id)
    refs: list[ScopeRef] = []
    seen: set[str] = set()
    for tournament in tournaments:
        rescore_results(tournament)  # catch up with a points table changed since
        for ref in tournament_scopes(tournament):
            if ref.key not in seen:  # a season is reached from each of its tournaments
                seen.add(ref.key)
                refs.append(ref)
    RecomputeRun.objects.filter(pk=run.pk).update(
        status=RecomputeRun.Status.RUNNING,
        total=len(refs),
        done=0,
        changed=0,
        task_id=task_id,
        finished_at=None,
        error="",
        updated_at=timezone.now(),
    )
    pause = settings.SCORING_RECOMPUTE_PAUSE_SECONDS
    changed = 0
    try:
        for done, ref in enumerate(refs, start=1):
            changed += recompute_scope(ref).changed
            # Absolute values, not increments: a resumed run rewrites the same progress.
            RecomputeRun.objects.filter(pk=run.pk).update(
                done=done, changed=changed, updated_at=timezone.now()
            )
            if pause:
                # Gives the queue's short per-game updates room between scopes.
                time.sleep(pause)
    except Exception as error:
        RecomputeRun.objects.filter(pk=run.pk).update(
            status=RecomputeRun.Status.FAILED, error=repr(error)[:2000], finished_at=timezone.now()
        )
        raise
    RecomputeRun.objects.filter(pk=run.pk).update(
        status=RecomputeRun.Status.DONE, finished_at=timezone.now()
    )
    run.refresh_from_db()
    return run
