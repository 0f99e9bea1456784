"""A tournament created under a Guandan preset is a team event: tables of two pairs, one match
a round capped at 30 hands, byes for an odd team, played until a team wins at A, match points
2/1/0, a points table that validates; a Daifugo preset keeps the JDF format."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def staff() -> object:
    return UserFactory(username="staff", is_staff=True)


def test_a_guandan_preset_defaults_to_a_team_event() -> None:
    cup = services.create_tournament_from_preset(
        actor=staff(), name="Guandan Open", slug="gd-open", ruleset="guandan-cn@1"
    )

    assert cup.plays_in_teams and cup.team_size == 2
    assert (cup.table_size, cup.sets_per_round, cup.games_per_set) == (4, 1, 30)
    assert cup.uneven_tables == Tournament.UnevenTables.BYES
    assert cup.match_length == Tournament.MatchLength.TO_ACE
    assert cup.match_points_by == Tournament.MatchPointsBy.RESULT
    assert cup.match_points == {"win": 2, "draw": 1, "loss": 0}
    assert (cup.title_reset_every, cup.seat_change_every) == (None, None)
    cup.full_clean()  # the points table validates for the team format


def test_a_daifugo_preset_keeps_the_jdf_format() -> None:
    cup = services.create_tournament_from_preset(
        actor=staff(), name="JDF Open", slug="jdf-open", ruleset="jdf@1"
    )
    assert (cup.table_size, cup.sets_per_round, cup.games_per_set) == (4, 3, 4)
    assert cup.uneven_tables == Tournament.UnevenTables.SHORT


def test_a_team_event_refuses_tables_of_three() -> None:
    with pytest.raises(ValidationError) as error:
        services.create_tournament_from_preset(
            actor=staff(), name="X", slug="x", ruleset="guandan-pagat@1", table_size=3
        )
    assert "table_size" in error.value.message_dict
    assert not Tournament.objects.exists()


def test_a_time_limited_match_needs_its_minutes() -> None:
    with pytest.raises(ValidationError) as error:
        services.create_tournament_from_preset(
            actor=staff(), name="X", slug="x", ruleset="guandan-cn@1", match_length="time"
        )
    assert "match_minutes" in error.value.message_dict
    timed = services.create_tournament_from_preset(
        actor=staff(),
        name="X",
        slug="x",
        ruleset="guandan-cn@1",
        match_length="time",
        match_minutes=45,
    )
    assert timed.match_minutes == 45


def test_the_new_tournament_form_makes_a_guandan_team_event(client: object) -> None:
    user = staff()
    client.force_login(user)  # type: ignore[attr-defined]
    response = client.post(  # type: ignore[attr-defined]
        "/organiser/",
        {
            "name": "掼蛋オープン",
            "slug": "guandan-open",
            "ruleset": "guandan-cn@1",
            "points_preset": "3-2-1-0",
            "games_per_set": 4,
            "sets_per_round": 3,
            "table_size": 4,
            "uneven_tables": "short",
            "bye_points": 0,
        },
    )
    assert response.status_code == 302
    cup = Tournament.objects.get(slug="guandan-open")
    assert (cup.games_per_set, cup.sets_per_round, cup.uneven_tables) == (30, 1, "byes")
    # The dashboard says the team format and match points, not a points table it never uses.
    dashboard = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")  # type: ignore[attr-defined]
    page = dashboard.content.decode()
    assert 'data-testid="team-format"' in page and "match points 2/1/0" in page
    assert "<code>3-2-1-0</code>" not in page
