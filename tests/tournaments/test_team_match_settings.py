"""A team event's match settings: the match length (until A, a number of hands, a time limit)
and match points (by result or by level difference), validated with English and Japanese
refusals; the settings page shows them only to team events and hides the 大富豪-only ones."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import (
    GuandanTournamentFactory,
    OfficialFactory,
    StageFactory,
    TournamentFactory,
    checked_in_teams,
)
from tournaments import services
from tournaments.models import Official, Tournament

pytestmark = pytest.mark.django_db


def refusal(tournament: Tournament, actor: User, **changes: object) -> dict[str, str]:
    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, actor, **changes)
    for error in refused.value.errors.values():
        assert error.message_ja and error.message_ja != error.message_en
    return {field: error.code for field, error in refused.value.errors.items()}


def test_a_match_becomes_a_fixed_number_of_hands(event: Tournament, organiser: User) -> None:
    services.update_tournament_settings(event, organiser, match_length="hands", games_per_set=8)
    event.refresh_from_db()
    assert (event.match_length, event.games_per_set) == ("hands", 8)


def test_a_time_limit_needs_minutes(event: Tournament, organiser: User) -> None:
    assert refusal(event, organiser, match_length="time") == {
        "match_minutes": "match_minutes_required"
    }
    assert refusal(event, organiser, match_length="time", match_minutes=0) == {
        "match_minutes": "match_minutes_invalid"
    }
    services.update_tournament_settings(event, organiser, match_length="time", match_minutes=40)
    event.refresh_from_db()
    assert event.match_minutes == 40


def test_match_points_by_result_must_not_reward_a_loss_over_a_win(
    event: Tournament, organiser: User
) -> None:
    codes = refusal(event, organiser, match_points={"win": 1, "draw": 2, "loss": 0})
    assert codes == {"match_points": "match_points_invalid"}
    services.update_tournament_settings(
        event, organiser, match_points={"win": 3, "draw": 1, "loss": 0}
    )
    services.update_tournament_settings(event, organiser, match_points_by="levels")
    event.refresh_from_db()
    assert event.match_points == {"win": 3, "draw": 1, "loss": 0}
    assert event.match_points_by == "levels"


def test_a_team_event_keeps_tables_of_two_pairs_and_byes(
    event: Tournament, organiser: User
) -> None:
    codes = refusal(event, organiser, table_size=5, uneven_tables="short", sets_per_round=3)
    assert codes == {
        "table_size": "team_table_size",
        "uneven_tables": "team_byes_only",
        "sets_per_round": "team_one_match",
    }


def test_the_match_length_is_fixed_once_a_round_is_published(
    event: Tournament, organiser: User
) -> None:
    stage = StageFactory(tournament=event, order=1)
    checked_in_teams(event, 2)
    services.publish_round(services.draw_round(stage, organiser), organiser)
    assert refusal(event, organiser, match_length="hands") == {"match_length": "round_published"}


def test_a_daifugo_tournament_has_no_match_settings(organiser: User) -> None:
    daifugo = TournamentFactory()
    OfficialFactory(tournament=daifugo, user=organiser, role=Official.Role.ORGANISER)
    assert refusal(daifugo, organiser, match_length="hands") == {"match_length": "not_a_team_event"}


def test_the_settings_page_shows_the_match_to_a_team_event_only(
    client: Client, event: Tournament, organiser: User
) -> None:
    client.force_login(organiser)
    page = client.get(f"/organiser/{event.slug}/settings/").content.decode()
    assert 'name="match_length"' in page and 'name="match_win"' in page
    assert 'name="title_reset_every"' not in page and 'name="table_size"' not in page
    # A hand scores the winning pair's level gain and a team hand is never forfeited: no points
    # table, tie-break keys or forfeit rule to set.
    for unused in ("points_preset", "places_4", "tie_breaks", "forfeit_others"):
        assert f'name="{unused}"' not in page

    daifugo = TournamentFactory()
    OfficialFactory(tournament=daifugo, user=organiser, role=Official.Role.ORGANISER)
    page = client.get(f"/organiser/{daifugo.slug}/settings/").content.decode()
    assert 'name="match_length"' not in page and 'name="title_reset_every"' in page
    assert 'name="points_preset"' in page and 'name="forfeit_others"' in page


def test_the_settings_page_saves_a_time_limit_and_explains_a_refusal_in_japanese(
    client: Client, event: Tournament, organiser: User
) -> None:
    client.force_login(organiser)
    form = {
        "name": event.name,
        "status": event.status,
        "games_per_set": 30,
        "bye_points": 0,
        "match_length": "time",
        "match_minutes": "",
        "match_points_by": "result",
        "match_win": 2,
        "match_draw": 1,
        "match_loss": 0,
    }
    refused = client.post(f"/organiser/{event.slug}/settings/", form, HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 422
    assert "制限時間（分）が必要です" in refused.content.decode()
    saved = client.post(f"/organiser/{event.slug}/settings/", {**form, "match_minutes": 45})
    assert saved.status_code == 200
    event.refresh_from_db()
    assert (event.match_length, event.match_minutes) == ("time", 45)
    assert event.points_table == GuandanTournamentFactory.build().points_table  # untouched
