from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from scoring import receivers
        from scoring.cuts import stage_ranking
        from scoring.impact import ruling_impact
        from tournaments.impact import register_ruling_impact
        from tournaments.ranking import register_stage_ranking

        receivers.connect()
        register_stage_ranking(stage_ranking)
        register_ruling_impact(ruling_impact)
