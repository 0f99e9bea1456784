"""Staff run leagues and their seasons; a tournament joins a season from its settings and
counts in the season standings."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from scoring.standings import ScopeRef, recompute_scope, standings
from tests.factories import UserFactory, finished_game
from tests.scoring.conftest import seat_round
from tournaments import services
from tournaments.models import AuditEntry, Stage, Tournament

from .conftest import checked_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> User:
    return UserFactory(username="staff-c", is_staff=True)


def test_staff_create_and_rename_leagues_and_seasons(staff: User) -> None:
    league = services.create_league(staff, name="JDF Cup", slug="jdf-cup")
    season = services.create_season(league, staff, name="2026", slug="2026")

    services.update_league(league, staff, name="JDF Cup 天下一")
    services.update_season(season, staff, name="2026 season")

    league.refresh_from_db()
    season.refresh_from_db()
    assert (league.name, season.name, season.league) == ("JDF Cup 天下一", "2026 season", league)


def test_addresses_are_unique(staff: User) -> None:
    league = services.create_league(staff, name="JDF Cup", slug="jdf-cup")
    services.create_season(league, staff, name="2026", slug="2026")

    for call in (
        lambda: services.create_league(staff, name="Other", slug="jdf-cup"),
        lambda: services.create_season(league, staff, name="Again", slug="2026"),
    ):
        with pytest.raises(services.DomainError) as error:
            call()
        assert error.value.code == "slug_taken"


def test_only_staff_manage_leagues(organiser: User) -> None:
    with pytest.raises(PermissionDenied):
        services.create_league(organiser, name="Mine", slug="mine")


def test_a_tournament_joins_a_season_from_its_settings_and_counts_there(
    staff: User, organiser: User, tournament: Tournament, stage: Stage
) -> None:
    season = services.create_season(
        services.create_league(staff, name="JDF Cup", slug="jdf-cup"), staff, name="2026", slug="26"
    )
    entries = checked_in(tournament, 4)
    (table,) = seat_round(stage, entries)
    finished_game(table, entries, confirmed=True)

    services.update_tournament_settings(tournament, organiser, season=season)
    recompute_scope(ScopeRef.season(season.pk))

    assert AuditEntry.objects.get(action=AuditEntry.Action.SETTINGS_CHANGED).data["changed"][
        "season"
    ]["new"] == {"id": season.pk, "name": str(season)}
    rows = standings(ScopeRef.season(season.pk))
    assert (rows[0].player.display_name, rows[0].points) == ("Player 1", 3)
