"""The advancement's rules, reasons and ties in the page's language (`tournaments.advancement`
keeps them as values; their `str()` is the English kept in records and the API's errors)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.advancement import Reason, Where


def rule_words(top_n: int | None, top_k_per_table: int | None) -> str:
    """ "top 2 per table + top 4 by total points", or "—" for a stage nobody advances from."""
    if top_n and top_k_per_table:
        return _("top %(k)s per table + top %(n)s by total points") % {
            "k": top_k_per_table,
            "n": top_n,
        }
    if top_k_per_table:
        return _("top %(k)s per table") % {"k": top_k_per_table}
    if top_n:
        return _("top %(n)s by total points") % {"n": top_n}
    return "—"


def reason_words(reason: Reason | None) -> str:
    """Why an entrant advances, without their total: "top 2 at table 3"."""
    if reason is None:
        return ""
    if reason.table is not None:
        return _("top %(k)s at table %(table)s") % {"k": reason.top, "table": reason.table}
    return _("top %(n)s by total points") % {"n": reason.top}


def tie_heading(where: Where, places_left: int) -> str:
    """ "Tie for 2 places at the cut line"; a tie in the final places has no places left."""
    if not places_left:
        if where.place is not None:
            return _("Tie for place %(place)s") % {"place": where.place}
        return _("Tie")
    if where.table is not None:
        return ngettext(
            "Tie for %(places)s place at table %(table)s",
            "Tie for %(places)s places at table %(table)s",
            places_left,
        ) % {"places": places_left, "table": where.table}
    return ngettext(
        "Tie for %(places)s place at the cut line",
        "Tie for %(places)s places at the cut line",
        places_left,
    ) % {"places": places_left}
