"""`{% draw_layout_preview stage %}`: the dashboard stage block's draw preview
(`tournaments.layout_views`)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.layout_views import preview_context
from tournaments.models import Stage

register = template.Library()


@register.inclusion_tag("organiser/draw_layout.html#preview", takes_context=True)
def draw_layout_preview(context: template.Context, stage: Stage) -> dict[str, Any]:
    return {"csrf_token": context.get("csrf_token"), **preview_context(stage)}
