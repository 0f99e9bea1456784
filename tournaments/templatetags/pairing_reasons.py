"""A team event's pairing reasons on a page, in its language: `{{ table|table_reason }}`,
`{{ bye|bye_reason }}` (`tournaments.pairing_words`; a row without stored facts shows its
stored English text)."""

from __future__ import annotations

from django import template

from tournaments.models import Bye, Table
from tournaments.pairing_words import bye_reason_text, table_reason_text

register = template.Library()


@register.filter
def table_reason(table: Table) -> str:
    return table_reason_text(table.reason, table.explanation)


@register.filter
def bye_reason(bye: Bye) -> str:
    return bye_reason_text(bye.reason, bye.explanation)
