"""Late arrivals: an entrant checked in after round 1 was drawn is seated from the next draw;
the dashboard says "late — joins at round N"; the rounds they missed score nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import GameResult
from tests.factories import EntryFactory, play_round_quickly
from tournaments import services
from tournaments.entrants import entrant_row
from tournaments.models import Entry, Seat, Stage, Tournament
from tournaments.selectors import stage_totals

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def short_rounds(tournament: Tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(games_per_set=1, sets_per_round=1)
    tournament.refresh_from_db()
    return tournament


def test_a_late_arrival_joins_at_the_next_draw_and_scores_nothing_for_missed_rounds(
    short_rounds: Tournament, stage: Stage, organiser: User, head_referee: User
) -> None:
    checked_in(short_rounds, 8)
    late = EntryFactory(tournament=short_rounds, number=9, player__display_name="Late")
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)

    services.check_in_entry(late, organiser)

    day = entrant_row(late).day  # type: ignore[attr-defined]
    assert (day.is_late, day.joins_at, day.missed) == (True, 2, [1])
    play_round_quickly(first, organiser, head_referee)
    services.complete_round(first, organiser)
    assert stage_totals(stage)[late.pk] == 0
    assert not GameResult.objects.filter(entry=late).exists()
    second = services.draw_round(stage, organiser)
    assert Seat.objects.filter(round=second, entry=late).exists()
    assert entrant_row(late).day.joins_at == 2  # type: ignore[attr-defined]
    services.publish_round(second, organiser)
    assert not entrant_row(late).day.is_late  # type: ignore[attr-defined]


def test_checked_in_after_the_draft_was_drawn_asks_for_a_redraw(
    short_rounds: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(short_rounds, 8)
    late = EntryFactory(tournament=short_rounds, number=9)
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)
    services.draw_round(stage, organiser, override_reason="hall closes early")

    services.check_in_entry(late, organiser)

    day = entrant_row(late).day  # type: ignore[attr-defined]
    assert (day.joins_at, day.needs_redraw) == (2, True)
    services.draw_round(stage, organiser, override_reason="seat the late arrival")
    assert not entrant_row(late).day.needs_redraw  # type: ignore[attr-defined]


def test_an_entrant_on_time_is_not_late(
    short_rounds: Tournament, stage: Stage, organiser: User
) -> None:
    (entry, *_) = checked_in(short_rounds, 8)
    services.publish_round(services.draw_round(stage, organiser), organiser)

    assert not entrant_row(entry).day.is_late  # type: ignore[attr-defined]


def test_the_dashboard_says_when_a_late_arrival_joins(
    client: Client, short_rounds: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(short_rounds, 8)
    late = EntryFactory(tournament=short_rounds, number=9, player__display_name="Ota Mio")
    services.publish_round(services.draw_round(stage, organiser), organiser)
    client.force_login(organiser)

    response = client.post(
        f"/organiser/nagoya-open/entries/{late.pk}/check-in/", HTTP_HX_REQUEST="true"
    )

    row = response.content.decode()
    assert row.lstrip().startswith(f'<tr id="entry-{late.pk}"')
    assert "late — joins at round 2" in row
    late.refresh_from_db()
    assert late.status == Entry.Status.CHECKED_IN
    page = client.get("/organiser/nagoya-open/").content.decode()
    assert "#9 Ota Mio (joins at round 2)" in page
    assert "Rounds they missed score nothing." in page
