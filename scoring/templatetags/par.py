"""`|signed_par`: a duplicate score as boards print it (+1.50, −1.33, 0.00, — for none)."""

from __future__ import annotations

from decimal import Decimal

from django import template

from scoring.selectors import signed_par as _signed_par

register = template.Library()


@register.filter
def signed_par(value: Decimal | None) -> str:
    return _signed_par(value)
