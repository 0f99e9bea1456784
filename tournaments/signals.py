"""Tournament signals, sent after commit (scoring and webhooks listen; tournaments imports
neither)."""

from __future__ import annotations

from django.dispatch import Signal

# A stage advanced: stage_id, target_stage_id, advancing (entry ids in qualifying order).
stage_advanced = Signal()
