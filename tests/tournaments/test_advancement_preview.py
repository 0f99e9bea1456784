"""The organiser sees who would advance now, and every tie at the cut line, before advancing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.factories import UserFactory
from tournaments import services
from tournaments.advancement import CUT_LINE, Rule, preview_advancing
from tournaments.models import Stage, Tournament

from .stage_scenarios import tied_qualifying

TOTALS = {1: 30, 2: 25, 3: 25, 4: 10, 5: 40}


def test_a_preview_lists_the_tie_instead_of_stopping_at_it() -> None:
    preview = preview_advancing(TOTALS, Rule(top_n=3))

    assert preview.ties == (((2, 3), 1, CUT_LINE),)
    assert [preview.status(e) for e in (5, 1, 2, 3, 4)] == ["in", "in", "tied", "tied", "out"]


def test_a_tie_break_order_settles_the_preview() -> None:
    preview = preview_advancing(TOTALS, Rule(top_n=3), tie_break=[(3,), (2,)])

    assert preview.ties == ()
    assert preview.advancing == (5, 1, 3)


def test_entrants_level_in_a_playoff_stay_tied() -> None:
    preview = preview_advancing(TOTALS, Rule(top_n=3), tie_break=[(2, 3)])

    assert preview.ties == (((2, 3), 1, CUT_LINE),)


@pytest.mark.django_db
def test_the_stage_preview_flags_the_tie_at_the_cut_line(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    seats = tied_qualifying(tournament, stage, organiser, head_referee)

    preview = services.preview_advancement(stage, organiser)

    status = {row.entry.number: row.status for row in preview.rows}
    assert {status[e.number] for e in seats[1]} == {"in"}
    assert {status[e.number] for e in seats[2]} == {"tied"}
    assert {status[e.number] for e in seats[3] + seats[4]} == {"out"}
    (tie,) = preview.ties
    assert sorted(tie.numbers) == sorted(e.number for e in seats[2])
    assert tie.places_left == 1
    assert preview.target is not None and preview.target.kind == Stage.Kind.FINAL
    assert [row.place for row in preview.rows][:6] == [1, 1, 1, 4, 4, 4]


@pytest.mark.django_db
def test_only_organisers_preview(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    with pytest.raises(PermissionDenied):
        services.preview_advancement(stage, UserFactory())
