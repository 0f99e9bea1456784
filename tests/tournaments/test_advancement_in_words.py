"""The advancement's rule, reasons and ties read in the page's language, from the values the
advancement computes (never by re-reading its English)."""

from __future__ import annotations

from django.utils import translation

from tournaments.advancement import CUT_LINE, Reason, Where
from tournaments.advancement_words import reason_words, rule_words, tie_heading


def test_a_rule_reads_in_either_language() -> None:
    with translation.override("en"):
        assert rule_words(4, 2) == "top 2 per table + top 4 by total points"
        assert rule_words(None, None) == "—"
    with translation.override("ja"):
        both = rule_words(4, 2)
    assert "2" in both and "4" in both and "top" not in both


def test_a_reason_reads_without_the_total() -> None:
    at_table = Reason(top=2, total=41.5, table=3)
    with translation.override("en"):
        assert reason_words(at_table) == "top 2 at table 3"
        assert reason_words(Reason(top=4, total=30)) == "top 4 by total points"
        assert reason_words(None) == ""
    with translation.override("ja"):
        assert "3" in reason_words(at_table) and "table" not in reason_words(at_table)
    # The English kept with the advancement keeps the total.
    assert str(at_table) == "top 2 at table 3 (total 41.5)"


def test_tie_headings_say_where_and_how_many_places() -> None:
    with translation.override("en"):
        assert tie_heading(CUT_LINE, 1) == "Tie for 1 place at the cut line"
        assert tie_heading(Where(table=2), 2) == "Tie for 2 places at table 2"
        assert tie_heading(Where(place=3), 0) == "Tie for place 3"
    with translation.override("ja"):
        assert "cut" not in tie_heading(CUT_LINE, 1)
