"""Cells for CSV files people open in a spreadsheet.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and some read a leading tab or
carriage return the same way) as a formula: a player who registers as
`=HYPERLINK("http://…","…")` would put a live link, or worse, into the organiser's sheet.
OWASP's advice (CSV injection) is to start such a cell with `'`, which spreadsheets show as
text. Numbers are left alone: a negative points figure (`-3`) must stay a number.
"""

from __future__ import annotations

import re
from decimal import Decimal

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def spreadsheet_cell(value: object) -> object:
    """`value` as a CSV cell that no spreadsheet runs as a formula: text starting with a
    formula character gets a leading `'`; numbers (and text that is just a number) pass."""
    if isinstance(value, int | float | Decimal) or not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value
