"""Byes (不戦) under the uneven-tables policy ``byes``: recorded by the draw with the tournament's
bye points, never seated, replaced by a redraw, counted in stage totals and standings (but not
as a game) once the round is published, and rotated round after round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.standings import ScopeRef, recompute_scope, standings
from tests.factories import browser, play_round_quickly
from tournaments import services
from tournaments.models import Bye, Entry, Round, Seat, Stage, Tournament
from tournaments.ranking import confirmed_stage_totals
from tournaments.selectors import seating_history, stage_totals

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def nine(tournament: Tournament, stage: Stage) -> list[Entry]:
    tournament.uneven_tables = Tournament.UnevenTables.BYES
    tournament.bye_points = 6
    tournament.games_per_set = 1
    tournament.sets_per_round = 1
    tournament.save()
    return checked_in(tournament, 9)  # two tables of 4 and one bye


def test_the_draw_records_byes_with_the_tournaments_bye_points(
    stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    round_ = services.draw_round(stage, organiser)

    byes = list(Bye.objects.filter(round=round_))
    assert [len(t.seats.all()) for t in round_.tables.order_by("number")] == [4, 4]
    assert len(byes) == 1 and byes[0].points == 6
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert byes[0].entry_id not in seated  # nobody both seated and on a bye
    assert seated | {byes[0].entry_id} == {e.pk for e in nine}


def test_a_redraw_replaces_the_drafts_byes(
    stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    services.draw_round(stage, organiser, seed="one")
    redrawn = services.draw_round(stage, organiser, seed="two")

    assert Round.objects.filter(stage=stage).count() == 1
    assert list(Bye.objects.values_list("round_id", flat=True)) == [redrawn.pk]


def test_bye_points_count_in_stage_totals_and_standings_once_published(
    tournament: Tournament, stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    round_ = services.draw_round(stage, organiser)
    bye = Bye.objects.get(round=round_)
    assert stage_totals(stage)[bye.entry_id] == 0  # a draft's bye counts for nobody

    services.publish_round(round_, organiser)

    assert stage_totals(stage)[bye.entry_id] == 6
    assert confirmed_stage_totals(stage)[bye.entry_id] == 6  # a bye is ruled, not provisional
    for ref in (ScopeRef.stage(stage.pk), ScopeRef.tournament(tournament.pk)):
        recompute_scope(ref)
        row = next(r for r in standings(ref) if r.entry_id == bye.entry_id)
        assert (row.points, row.confirmed_points, row.games) == (6, 6, 0)  # not a game played
        assert set(row.metrics.values()) == {0}  # no title, no foul: a bye is not a game
        assert row.best_set is None
        assert row.rank == 1  # 6 points lead a field that has not played yet


def test_byes_rotate_round_after_round(
    tournament: Tournament, stage: Stage, organiser: User, head_referee: User, nine: list[Entry]
) -> None:
    had_a_bye: list[int] = []
    for _ in range(3):
        round_ = services.draw_round(stage, organiser)
        had_a_bye += list(round_.byes.values_list("entry_id", flat=True))
        services.publish_round(round_, organiser)
        play_round_quickly(round_, organiser, head_referee)
        services.complete_round(round_, organiser)

    assert len(set(had_a_bye)) == 3  # three rounds, three different players sat out
    assert sorted(seating_history(tournament).byes) == sorted(had_a_bye)


def test_the_round_pages_list_the_byes(
    client: Client, tournament: Tournament, stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    bye = Bye.objects.select_related("entry__player").get(round=round_)
    client.force_login(organiser)

    for url in (
        f"/organiser/{tournament.slug}/rounds/{round_.pk}/",
        f"/tournaments/{tournament.slug}/rounds/{round_.pk}/",
    ):
        page = client.get(url).content.decode()
        assert 'data-testid="byes"' in page, url
        assert f"#{bye.entry.number} {bye.entry.player.display_name}" in page
        assert "6 points" in page


def test_the_api_round_detail_lists_byes(
    client: Client, tournament: Tournament, stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    round_ = services.draw_round(stage, organiser)
    client.force_login(organiser)

    data = client.get(f"/api/rounds/{round_.pk}/").json()

    bye = Bye.objects.select_related("entry").get(round=round_)
    assert data["byes"] == [
        {"entry_number": bye.entry.number, "player": bye.entry.player.display_name, "points": 6}
    ]
    tournament_data = client.get(f"/api/tournaments/{tournament.slug}/").json()
    assert (tournament_data["uneven_tables"], tournament_data["bye_points"]) == ("byes", 6)


def test_the_player_page_lists_the_bye_in_its_round_and_counts_its_points(
    client: Client,
    tournament: Tournament,
    stage: Stage,
    organiser: User,
    head_referee: User,
    nine: list[Entry],
) -> None:
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    first = services.draw_round(stage, organiser)
    services.publish_round(first, organiser)
    play_round_quickly(first, organiser, head_referee)
    services.complete_round(first, organiser)
    second = services.draw_round(stage, organiser)
    services.publish_round(second, organiser)
    bye = Bye.objects.select_related("entry").get(round=first)

    page = client.get(f"/players/{bye.entry.player_id}/").content.decode()

    assert page.count('data-testid="bye-line"') == 1
    assert '<td colspan="4">bye <small>' in page
    # Round 1 was the bye (6); round 2 is not played yet: the total is the bye's points.
    assert "6 points" in page
    japanese = browser("ja").get(f"/players/{bye.entry.player_id}/").content.decode()
    assert '<td colspan="4">不戦 <small>' in japanese and "6点" in japanese
    assert "sat out the round" not in japanese and "6 points" not in japanese


def test_an_entrant_on_a_bye_cannot_also_take_a_seat_as_a_substitute(
    tournament: Tournament, stage: Stage, organiser: User, nine: list[Entry]
) -> None:
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    bye = Bye.objects.select_related("entry").get(round=round_)
    seated = Seat.objects.filter(round=round_).select_related("entry").first()
    assert seated is not None

    with pytest.raises(services.DomainError) as refused:
        services.substitute_entry(seated.entry, organiser, substitute=bye.entry)

    assert refused.value.code == "substitute_invalid"
    assert not Seat.objects.filter(round=round_, entry=bye.entry).exists()
