"""Tournament settings change from the organiser's page and the API: safe changes applied and
audited with old and new values, unsafe ones refused per field with a code, a points-table
change after games were played rescoring every result."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from games.models import GameResult
from tests.factories import play_round_quickly
from tournaments import services
from tournaments.models import AuditEntry, League, Season, Stage, Tournament
from tournaments.points import preset_points_table

from .conftest import checked_in
from .stage_scenarios import quick_format

pytestmark = pytest.mark.django_db


def refusals(tournament: Tournament, actor: User, **changes: object) -> dict[str, str]:
    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, actor, **changes)
    for error in refused.value.errors.values():
        assert error.message_en and error.message_ja
    return {field: error.code for field, error in refused.value.errors.items()}


def test_safe_changes_are_applied_and_audited_with_old_and_new_values(
    tournament: Tournament, organiser: User
) -> None:
    season = Season.objects.create(
        league=League.objects.create(name="JDF", slug="jdf"), name="2026", slug="2026"
    )

    change = services.update_tournament_settings(
        tournament,
        organiser,
        name="Nagoya Open 名古屋",
        venue="Hall B",
        starts_on=datetime.date(2026, 5, 2),
        ends_on=datetime.date(2026, 5, 3),
        season=season,
        undo_requires_approval=True,
        uneven_tables="byes",
        bye_points=2,
    )

    tournament.refresh_from_db()
    assert (tournament.name, tournament.season, tournament.bye_points) == (
        "Nagoya Open 名古屋",
        season,
        2,
    )
    assert set(change.changed) >= {"name", "venue", "season", "uneven_tables"}
    audit = AuditEntry.objects.get(action=AuditEntry.Action.SETTINGS_CHANGED)
    assert audit.data["changed"]["name"] == {"old": "Nagoya Open", "new": "Nagoya Open 名古屋"}
    assert audit.data["changed"]["starts_on"]["new"] == "2026-05-02"
    assert audit.data["changed"]["season"]["new"]["id"] == season.pk


def test_the_format_is_fixed_once_a_round_is_published(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    checked_in(tournament, 8)
    round_ = services.draw_round(stage, organiser)
    assert refusals(tournament, organiser, table_size=3) == {"table_size": "round_drawn"}
    services.update_tournament_settings(tournament, organiser, games_per_set=2)  # still a draft

    services.publish_round(round_, organiser)

    codes = refusals(
        tournament,
        organiser,
        name="Renamed",
        games_per_set=4,
        sets_per_round=2,
        table_size=5,
        ruleset_id="other",
        status="draft",
    )
    assert codes == {
        "games_per_set": "round_published",
        "sets_per_round": "round_published",
        "table_size": "round_drawn",
        "ruleset_id": "ruleset_pinned",
        "status": "rounds_published",
    }
    tournament.refresh_from_db()
    assert tournament.name == "Nagoya Open"  # all or nothing


def test_status_moves_and_dates_are_checked(tournament: Tournament, organiser: User) -> None:
    assert refusals(
        tournament,
        organiser,
        starts_on=datetime.date(2026, 5, 3),
        ends_on=datetime.date(2026, 5, 2),
    ) == {"ends_on": "ends_before_start"}
    services.update_tournament_settings(tournament, organiser, status="running")
    services.update_tournament_settings(tournament, organiser, status="finished")

    assert refusals(tournament, organiser, status="running") == {"status": "status_finished"}


def test_a_bad_points_table_is_refused(tournament: Tournament, organiser: User) -> None:
    codes = refusals(tournament, organiser, points_table={"places": {"4": [0, 1, 2, 3]}})

    assert codes == {"points_table": "points_table_invalid"}


def test_a_points_change_after_games_rescores_every_result(
    tournament: Tournament,
    stage: Stage,
    organiser: User,
    head_referee: User,
    django_capture_on_commit_callbacks: object,
) -> None:
    quick_format(tournament)
    checked_in(tournament, 4)
    round_ = services.draw_round(stage, organiser)
    services.publish_round(round_, organiser)
    play_round_quickly(round_, organiser, head_referee)
    assert sorted(GameResult.objects.values_list("points", flat=True)) == [0, 1, 2, 3]

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        change = services.update_tournament_settings(
            tournament, organiser, points_table=preset_points_table("5-4-3-2-1")
        )

    assert change.rescored
    assert any("recomputed" in n.message_en for n in change.notices)
    assert sorted(GameResult.objects.values_list("points", flat=True)) == [1, 2, 3, 4]
