# Sun 20 Dec 2026, 13:00 — a 24-hour clock, as on the Japanese pages, so the two agree.
from __future__ import annotations

DATE_FORMAT = "D j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "D j M Y, H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
