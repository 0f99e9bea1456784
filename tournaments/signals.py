"""Tournament signals, sent inside the transaction that made the change (scoring and webhooks
listen, and record what must follow in the outbox, `games.outbox`, so it commits with the
change; tournaments imports neither)."""

from __future__ import annotations

from django.dispatch import Signal

# A stage advanced: stage_id, target_stage_id, advancing (entry ids in qualifying order).
stage_advanced = Signal()

# A round changed status (published, in play, complete, revealed, closed): round_id, status.
# The boards list each scope's rounds with their status and refresh on it.
round_status_changed = Signal()

# An official changed results outside a game's own flow (a penalty given or withdrawn):
# tournament_id. Scoring recomputes the tournament's standings.
penalties_changed = Signal()

# An organiser changed the tournament's settings: tournament_id, rescore (the points table or
# the leaver's points changed after games were played). Scoring rescores the results when
# asked and recomputes the tournament's standings.
tournament_settings_changed = Signal()
