"""A points table must score every table size the tournament's uneven-tables policy can
produce: tables of size−1 under ``short``, size+1 (and size−1, its fallback) under ``long``,
only full tables under ``byes`` — at creation, when the table changes, when the policy
changes, and at the draw."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Stage, Tournament
from tournaments.points import custom_points_table, validate_points_table

from .conftest import checked_in

pytestmark = pytest.mark.django_db

ONLY_FOUR = {"preset": "custom", "places": {"4": [3, 2, 1, 0]}}
FOUR_AND_THREE = {"preset": "custom", "places": {"4": [3, 2, 1, 0], "3": [2, 1, 0]}}
FOUR_AND_FIVE = {"preset": "custom", "places": {"4": [3, 2, 1, 0], "5": [4, 3, 2, 1, 0]}}


@pytest.mark.parametrize(
    ("table", "policy", "ok"),
    [
        (ONLY_FOUR, "byes", True),
        (ONLY_FOUR, "short", False),  # tables of 3 need points
        (FOUR_AND_THREE, "short", True),
        (FOUR_AND_THREE, "long", False),  # tables of 5 need points
        (FOUR_AND_FIVE, "long", False),  # and of 3: 6, 7 or 11 players fall back to them
        (custom_points_table({3: [2, 1, 0], 4: [3, 2, 1, 0], 5: [4, 3, 2, 1, 0]}), "long", True),
    ],
)
def test_validation_requires_the_sizes_the_policy_produces(
    table: dict[str, object], policy: str, ok: bool
) -> None:
    if ok:
        validate_points_table(table, 4, policy)
    else:
        with pytest.raises(ValidationError, match="no entry for tables of"):
            validate_points_table(table, 4, policy)


def test_set_points_table_checks_the_tournaments_policy(
    tournament: Tournament, organiser: User
) -> None:
    tournament.uneven_tables = Tournament.UnevenTables.LONG
    tournament.save()

    with pytest.raises((ValidationError, services.DomainError), match="tables of 5 and 3"):
        services.set_points_table(tournament, organiser, ONLY_FOUR)

    tournament.uneven_tables = Tournament.UnevenTables.BYES
    tournament.save()
    services.set_points_table(tournament, organiser, ONLY_FOUR)
    assert Tournament.objects.get(pk=tournament.pk).points_table == ONLY_FOUR


def test_creation_accepts_every_policy_with_a_preset(db: None) -> None:
    staff = UserFactory(username="staff", is_staff=True)
    # Presets score 3, 4 and 5 seats: every policy is fine at tables of 4.
    for policy in ("short", "long", "byes"):
        cup = services.create_tournament_from_preset(
            actor=staff, name=f"Cup {policy}", slug=f"cup-{policy}", uneven_tables=policy
        )
        assert cup.uneven_tables == policy


def test_a_tournament_is_invalid_when_its_points_miss_a_size_of_its_policy(db: None) -> None:
    cup = Tournament(name="Cup", slug="cup", points_table=FOUR_AND_THREE, uneven_tables="long")

    with pytest.raises(ValidationError, match="tables of 5"):
        cup.full_clean()
    cup.uneven_tables = "short"
    cup.full_clean()


def test_changing_the_policy_is_refused_when_the_points_table_lacks_a_size(
    tournament: Tournament, organiser: User
) -> None:
    tournament.uneven_tables = Tournament.UnevenTables.BYES
    tournament.points_table = ONLY_FOUR
    tournament.save()

    with pytest.raises(services.SettingsRefused) as refused:
        services.update_tournament_settings(tournament, organiser, uneven_tables="long")

    assert refused.value.errors["uneven_tables"].code == "points_table_invalid"
    assert Tournament.objects.get(pk=tournament.pk).uneven_tables == "byes"


def test_the_draw_is_refused_when_a_table_size_has_no_points(
    tournament: Tournament, stage: Stage, organiser: User
) -> None:
    # Saved behind the services' back (e.g. an old row): the draw still refuses to seat a
    # table of 3 nobody could score.
    Tournament.objects.filter(pk=tournament.pk).update(points_table=ONLY_FOUR)
    stage.refresh_from_db()
    checked_in(tournament, 7)

    with pytest.raises(services.DomainError) as refused:
        services.draw_round(stage, organiser)

    assert refused.value.code == "points_table_missing_size"
