"""Words for people on any page: `|in_active_language` shows the half of a message pair
(a refusal, blocker or notice with `message_en`/`message_ja`, or `<prefix>_en`/`<prefix>_ja`
with the prefix as argument) in the page's language; `|placing`: 1 → "1st" (1位)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import pgettext, pgettext_lazy

from config.language import in_active_language as _in_active_language

register = template.Library()


@register.filter
def in_active_language(value: Any, prefix: str = "message") -> str:
    """`value.<prefix>_en` or `value.<prefix>_ja`, whichever the page's language reads."""
    return _in_active_language(
        str(getattr(value, f"{prefix}_en", "") or ""), str(getattr(value, f"{prefix}_ja", "") or "")
    )


PLACINGS = {
    1: pgettext_lazy("placing", "1st"),
    2: pgettext_lazy("placing", "2nd"),
    3: pgettext_lazy("placing", "3rd"),
    4: pgettext_lazy("placing", "4th"),
    5: pgettext_lazy("placing", "5th"),
}


@register.filter
def placing(place: int) -> str:
    """A game's placing as the results sheet prints it: "1st", or 1位 in Japanese."""
    if place in PLACINGS:
        return str(PLACINGS[place])
    return pgettext("placing", "%(place)sth") % {"place": place}
