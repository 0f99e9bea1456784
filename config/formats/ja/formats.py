# 2026年12月20日(日) 13:00 — the weekday in brackets, a 24-hour clock, as Japanese event
# programmes print them (Django's own Japanese formats leave out the weekday).
from __future__ import annotations

DATE_FORMAT = "Y年n月j日(D)"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "Y年n月j日(D) H:i"
MONTH_DAY_FORMAT = "n月j日(D)"
YEAR_MONTH_FORMAT = "Y年n月"
SHORT_DATE_FORMAT = "Y/m/d"
SHORT_DATETIME_FORMAT = "Y/m/d H:i"
