"""A points table lists, per table size, the points of each place from first to last."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments.points import preset_points_table, validate_points_table


def test_the_default_preset_scores_three_two_one_nothing_at_a_table_of_four() -> None:
    table = preset_points_table("3-2-1-0")

    assert table["places"]["4"] == [3, 2, 1, 0]
    validate_points_table(table, table_size=4)


@pytest.mark.parametrize(
    "value",
    [
        {"preset": "x"},  # no places
        {"places": {"4": [3, 2, 1]}},  # one short
        {"places": {"4": [1, 2, 3, 4]}},  # later places score more
        {"places": {"4": [3, 2, 1, "0"]}},  # not integers
        {"places": {"2": [1, 0]}},  # a table of two
        {"places": {}},
    ],
)
def test_malformed_points_tables_are_refused(value: object) -> None:
    with pytest.raises(ValidationError):
        validate_points_table(value)


def test_the_tournament_table_size_must_be_covered() -> None:
    with pytest.raises(ValidationError, match="tables of 5"):
        validate_points_table({"places": {"4": [3, 2, 1, 0]}}, table_size=5)


def test_negative_points_are_allowed_when_they_never_increase() -> None:
    validate_points_table({"preset": "plus2-minus2", "places": {"4": [2, 1, -1, -2]}}, 4)
